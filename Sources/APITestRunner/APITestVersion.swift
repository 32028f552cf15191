/// The version of apitest, as `--version` and the default `User-Agent` report it.
public enum APITestVersion {
    public static let string = "0.1.0"
}
