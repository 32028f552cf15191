curl --resolve example.com:443:127.0.0.1 --connect-to a:80:b:8080 --cacert ca.pem --pinnedpubkey 'sha256//AAAA' https://example.com/
