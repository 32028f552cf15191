curl -sS https://api.example.com/users -H "Authorization: Bearer $TOKEN"
