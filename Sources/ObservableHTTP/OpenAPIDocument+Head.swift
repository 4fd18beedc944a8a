/// The document's version, description and default credentials.
extension OpenAPIDocument {
  static let head = #"""
    {
     "openapi":"3.0.3",
     "info":{
             "title":"observable-server HTTP API",
             "version":"1",
             "description":"The HTTP side of observable-server (`--http`). Requests to /publish, /clear and /streams may share one keep-alive connection. Errors are JSON: `{\"error\":{\"code\":CODE,\"message\":TEXT}}`, the code as in the line protocol's error replies."
            },
     "security":[{"bearer":[]},{"basic":[]}]
    }
    """#
}
