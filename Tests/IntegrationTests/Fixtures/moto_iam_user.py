"""Creates an IAM user with an access key and an allow-all policy on a moto server started with
INITIAL_NO_AUTH_ACTION_COUNT (the first requests need no signature), through boto3 (which signs the IAM calls with
service 'iam', so moto routes them to IAM). Prints 'ACCESS_KEY_ID SECRET_ACCESS_KEY'."""
import json
import sys

import boto3

endpoint = sys.argv[1]
iam = boto3.client(
    "iam", endpoint_url=endpoint, region_name="us-east-1",
    aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
iam.create_user(UserName="apitest")
policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
iam.put_user_policy(UserName="apitest", PolicyName="all", PolicyDocument=json.dumps(policy))
key = iam.create_access_key(UserName="apitest")["AccessKey"]
print(key["AccessKeyId"], key["SecretAccessKey"])
