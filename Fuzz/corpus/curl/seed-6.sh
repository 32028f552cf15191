curl --aws-sigv4 'aws:amz:us-east-1:s3' -u KEY:SECRET https://bucket.s3.amazonaws.com/key -H 'x-amz-security-token: T'
