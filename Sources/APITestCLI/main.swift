print("apitest")
