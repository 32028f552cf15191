#!/usr/bin/env python3
"""Gives a moto server (server mode, IAM authentication enforced) a user and a role to sign S3 requests with.

Usage: moto_credentials.py ENDPOINT   (http://127.0.0.1:PORT of `python3 -m moto.server`)

The server must run with INITIAL_NO_AUTH_ACTION_COUNT=5: moto lets exactly that many requests through unchecked,
and this script spends them on the set-up (the five calls marked below). Every later request must be signed with
a key moto knows, and this script checks that before it prints anything: a request signed with a key moto never
issued must be refused.

Prints one JSON object:
  {"accessKey", "secretKey"}                   an IAM user's access key; its policy allows s3:* and sts:AssumeRole
  {"roleAccessKey", "roleSecretKey", "sessionToken"}
                                               temporary credentials of a role the user assumed (STS AssumeRole,
                                               signed with the user's key); the role's policy allows s3:*

Temporary credentials come from AssumeRole because moto's GetSessionToken returns fixed example credentials that
its own verifier does not know. boto3 signs every call with the service of the client (iam, sts), so moto routes
each to that service.
"""
import json
import sys

import boto3
import botocore.config
import botocore.exceptions

REGION = "us-east-1"
# No retries: a retried call would spend one more of the unchecked requests.
CONFIG = botocore.config.Config(retries={"total_max_attempts": 1})
S3_ALL = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}


def client(service, endpoint, access_key, secret_key, session_token=None):
    return boto3.client(
        service,
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=access_key,
        aws_secret_access_key=secret_key,
        aws_session_token=session_token,
        config=CONFIG,
    )


def main():
    endpoint = sys.argv[1]
    # Unchecked calls (moto's INITIAL_NO_AUTH_ACTION_COUNT): any key will do.
    iam = client("iam", endpoint, "AKIAUNCHECKEDSETUP00", "unchecked")
    user = iam.create_user(UserName="apitest")["User"]  # 1
    user_policy = {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3:*", "sts:AssumeRole"], "Resource": "*"}],
    }
    iam.put_user_policy(UserName="apitest", PolicyName="s3-and-assume", PolicyDocument=json.dumps(user_policy))  # 2
    key = iam.create_access_key(UserName="apitest")["AccessKey"]  # 3
    trust = {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Principal": {"AWS": user["Arn"]}, "Action": "sts:AssumeRole"}],
    }
    role = iam.create_role(RoleName="apitest-s3", AssumeRolePolicyDocument=json.dumps(trust))["Role"]  # 4
    iam.put_role_policy(RoleName="apitest-s3", PolicyName="s3-all", PolicyDocument=json.dumps(S3_ALL))  # 5

    # From here on moto checks every signature.
    try:
        client("sts", endpoint, "AKIANEVERISSUED00000", "nothing").get_caller_identity()
    except botocore.exceptions.ClientError as error:
        if error.response["Error"]["Code"] != "InvalidClientTokenId":
            raise
    else:
        sys.exit("moto accepted a key it never issued: is INITIAL_NO_AUTH_ACTION_COUNT 5?")

    sts = client("sts", endpoint, key["AccessKeyId"], key["SecretAccessKey"])
    assumed = sts.assume_role(RoleArn=role["Arn"], RoleSessionName="apitest")["Credentials"]
    print(
        json.dumps(
            {
                "accessKey": key["AccessKeyId"],
                "secretKey": key["SecretAccessKey"],
                "roleAccessKey": assumed["AccessKeyId"],
                "roleSecretKey": assumed["SecretAccessKey"],
                "sessionToken": assumed["SessionToken"],
            }
        )
    )


if __name__ == "__main__":
    main()
