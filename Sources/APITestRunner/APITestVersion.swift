/// The version of apitest, as `--version` and the default `User-Agent` report it.
package enum APITestVersion {
    package static let string = "0.1.0"
}
