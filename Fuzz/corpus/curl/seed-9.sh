curl -XPUT -d@body.json http://h/x | jq . > out.json; curl http://h/y && curl -I http://h/z
