curl --json '{"a":[1,2]}' --oauth2-bearer tok -b 'c=1; d=2' -A agent -e ref http://h/
