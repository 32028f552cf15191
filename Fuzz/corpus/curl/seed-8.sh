curl -H $'X-Tab: a\tb' -H "X-Quote: it's \"q\"" 'http://h/p' \
