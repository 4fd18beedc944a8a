/// The paths of the HTTP listener besides the API: the page, metrics, health, SSE, WebSocket.
extension OpenAPIDocument {
  static let otherPaths = #"""
    {
     "/":{
          "get":{
                 "operationId":"livePage",
                 "summary":"The live page.",
                 "security":[],
                 "responses":{
                              "200":{
                                     "description":"The page.",
                                     "content":{"text/html":{"schema":{"type":"string"}}}
                                    },
                              "405":{"$ref":"#/components/responses/MethodNotAllowed"}
                             }
                }
         },
     "/metrics":{
                 "get":{
                        "operationId":"metrics",
                        "summary":"The server's figures in Prometheus or OpenMetrics text.",
                        "security":[],
                        "responses":{
                                     "200":{
                                            "description":"The figures.",
                                            "content":{
                                                       "text/plain":{"schema":{"type":"string"}},
                                                       "application/openmetrics-text":{
                                                                                       "schema":{
                                                                                                 "type":"string"
                                                                                                }
                                                                                      }
                                                      }
                                           },
                                     "405":{"$ref":"#/components/responses/MethodNotAllowed"}
                                    }
                       }
                },
     "/healthz":{
                 "get":{
                        "operationId":"health",
                        "summary":"Whether the server is serving.",
                        "security":[],
                        "responses":{
                                     "200":{
                                            "description":"Serving.",
                                            "content":{
                                                       "application/json":{
                                                                           "schema":{
                                                                                     "$ref":"#/components/schemas/Health"
                                                                                    }
                                                                          }
                                                      }
                                           },
                                     "503":{
                                            "description":"Shutting down.",
                                            "content":{
                                                       "application/json":{
                                                                           "schema":{
                                                                                     "$ref":"#/components/schemas/Health"
                                                                                    }
                                                                          }
                                                      }
                                           },
                                     "405":{"$ref":"#/components/responses/MethodNotAllowed"}
                                    }
                       }
                },
     "/openapi.json":{
                      "get":{
                             "operationId":"openAPI",
                             "summary":"This document.",
                             "security":[],
                             "responses":{
                                          "200":{
                                                 "description":"The document.",
                                                 "content":{
                                                            "application/json":{
                                                                                "schema":{
                                                                                          "type":"object"
                                                                                         }
                                                                               }
                                                           }
                                                },
                                          "405":{"$ref":"#/components/responses/MethodNotAllowed"}
                                         }
                            }
                     },
     "/sse":{
             "get":{
                    "operationId":"serverSentEvents",
                    "summary":"Values as Server-Sent Events (EventSource).",
                    "description":"One event per value: `event:` the stream, `data:` the delivery line, `id:` its position with `--history`. A reconnect with `Last-Event-ID` resumes. The credential may also come as `token=` (with `user=`) or `jwt=` in the query, since an EventSource sets no headers.",
                    "parameters":[
                                  {
                                   "name":"stream",
                                   "in":"query",
                                   "required":true,
                                   "style":"form",
                                   "explode":true,
                                   "schema":{"type":"array","items":{"type":"string"},"minItems":1}
                                  },
                                  {
                                   "name":"Last-Event-ID",
                                   "in":"header",
                                   "required":false,
                                   "schema":{"type":"string"}
                                  }
                                 ],
                    "responses":{
                                 "200":{
                                        "description":"The event stream, until the connection closes.",
                                        "content":{"text/event-stream":{"schema":{"type":"string"}}}
                                       },
                                 "400":{"$ref":"#/components/responses/BadRequest"},
                                 "401":{"$ref":"#/components/responses/Unauthorized"},
                                 "405":{"$ref":"#/components/responses/MethodNotAllowed"},
                                 "503":{"$ref":"#/components/responses/Unavailable"}
                                }
                   }
            },
     "/ws":{
            "get":{
                   "operationId":"webSocket",
                   "summary":"The line protocol over WebSocket (RFC 6455).",
                   "security":[],
                   "description":"Upgrade with `Upgrade: websocket`; each text message is a line of the protocol. The credential is the protocol's `auth` request.",
                   "responses":{
                                "101":{"description":"Switching to WebSocket."},
                                "400":{
                                       "description":"Not a WebSocket handshake.",
                                       "content":{"text/plain":{"schema":{"type":"string"}}}
                                      },
                                "403":{
                                       "description":"The page's origin is not allowed (see --allow-origin).",
                                       "content":{"text/plain":{"schema":{"type":"string"}}}
                                      },
                                "426":{
                                       "description":"Upgrade required.",
                                       "content":{"text/plain":{"schema":{"type":"string"}}}
                                      },
                                "503":{
                                       "description":"Shutting down.",
                                       "content":{"text/plain":{"schema":{"type":"string"}}}
                                      }
                               }
                  }
           }
    }
    """#
}
