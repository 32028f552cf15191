curl --data-urlencode 'q=a b&c' --data-urlencode =raw -G http://h/search
