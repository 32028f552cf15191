curl -sSL --compressed -u user:pass --digest "https://example.com/a?b=1&c=%20"
