curl -X POST 'http://127.0.0.1:8080/api/users' -H 'Content-Type: application/json' -d '{"name":"alice","age":30}'
