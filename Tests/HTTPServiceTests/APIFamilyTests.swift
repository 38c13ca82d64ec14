import FaceKit
import Foundation
import Testing

@testable import HTTPService

/// The API families: which paths are whose, where keys are, how a key leaves the query
/// and the log, and each error shape.
@Suite struct APIFamilyTests {
  @Test func eachPathBelongsToItsFamilyAndTheProbesToNone() {
    #expect(APIFamily(path: "/healthz") == nil)
    #expect(APIFamily(path: "/metrics") == nil)
    #expect(APIFamily(path: "/v1/forecast") == .openMeteo)
    #expect(APIFamily(path: "/v1/runs") == .openMeteo)
    #expect(APIFamily(path: "/v1/search") == .openMeteo)
    for path in APIFamily.legacyPaths { #expect(APIFamily(path: path) == .legacy) }
    #expect(APIFamily(path: "/quickprevbydate.php") == .nwpcube)
    #expect(APIFamily(path: "/openapi.yaml") == .nwpcube)
    #expect(APIFamily(path: "/") == nil)
    #expect(APIFamily(path: "/static/app.js") == nil)
    #expect(APIFamily(path: "/static") == .nwpcube)
    #expect(APIFamily(path: "/index.html") == .nwpcube)
    #expect(APIFamily(path: "/healthz/") == .nwpcube)
    #expect(APIFamily(path: "/data/2.5/forecast") == .openWeatherMap)
    #expect(APIFamily(path: "/data/2.5/weather") == .openWeatherMap)
    #expect(APIFamily(path: "/data/3.0/onecall") == .nwpcube)
    #expect(APIFamily(path: "/forecast/KEY/38.7,-9.1") == .darkSky)
    #expect(APIFamily(path: "/forecast") == .nwpcube)
    #expect(APIFamily.keyParameters == ["apikey", "appid"])
    #expect(APIFamily.darkSky.key == .pathSegment(2))
  }

  @Test func theKeyLeavesTheQueryAndEveryOtherParameterStaysAsSent() {
    let name = "apikey"
    #expect(KeyLocation.query(nil, removing: name) == nil)
    #expect(KeyLocation.query("apikey=k", removing: name) == nil)
    #expect(KeyLocation.query("a=1&apikey=k&b=%2C", removing: name) == "a=1&b=%2C")
    #expect(KeyLocation.query("apikey=k&a=1", removing: name) == "a=1")
    #expect(KeyLocation.query("a=1&api%6Bey=k", removing: name) == "a=1")
    #expect(KeyLocation.query("a=1&apikeys=k&apikey", removing: name) == "a=1&apikeys=k")
    #expect(KeyLocation.query("a=%ZZ&apikey=k", removing: name) == "a=%ZZ")
    // Whatever the case: pyowm sends OpenWeatherMap's appid as APPID.
    #expect(KeyLocation.query("lat=1&APPID=k&lon=2", removing: "appid") == "lat=1&lon=2")
    #expect(KeyLocation.query("ApiKey=k&a=1", removing: name) == "a=1")
    #expect(KeyLocation.query("apikeys=k&APIKE=1", removing: name) == "apikeys=k&APIKE=1")
  }

  @Test func theLogSeesNoKey() {
    let names = APIFamily.keyParameters
    #expect(KeyLocation.query("a=1&b=2", redacting: names) == "a=1&b=2")
    #expect(KeyLocation.query("a=1&apikey=secret&b=2", redacting: names) == "a=1&apikey=(redacted)&b=2")
    #expect(KeyLocation.query("api%6Bey=secret", redacting: names) == "api%6Bey=(redacted)")
    #expect(KeyLocation.query("x=%41&apikey", redacting: names) == "x=%41&apikey=(redacted)")
    #expect(KeyLocation.query("q=Lisboa&APPID=secret", redacting: names) == "q=Lisboa&APPID=(redacted)")
  }

  @Test func theLogSeesNoKeyInAPath() {
    #expect(APIFamily.redacting("/forecast/secret/38.7,-9.1") == "/forecast/(redacted)/38.7,-9.1")
    #expect(APIFamily.redacting("/forecast/secret") == "/forecast/(redacted)")
    #expect(APIFamily.redacting("/forecast//38.7,-9.1") == "/forecast//38.7,-9.1")
    #expect(APIFamily.redacting("/v1/forecast/secret") == "/v1/forecast/secret")
    #expect(APIFamily.redacting("/data/2.5/forecast") == "/data/2.5/forecast")
  }

  @Test func aPathSegmentIsFoundByItsPlace() {
    #expect(KeyLocation.segment(2, of: "/forecast/KEY/38.1,-8.9").map(String.init) == "KEY")
    #expect(KeyLocation.segment(1, of: "/forecast/KEY/38.1,-8.9").map(String.init) == "forecast")
    #expect(KeyLocation.segment(3, of: "/forecast//38.1,-8.9").map(String.init) == "38.1,-8.9")
    #expect(KeyLocation.segment(2, of: "/forecast//38.1,-8.9").map(String.init) == "")
    #expect(KeyLocation.segment(2, of: "/forecast") == nil)
    #expect(KeyLocation.segment(0, of: "/forecast") == nil)
    #expect(KeyLocation.pathSegment(2).subject == "path segment 2")
    #expect(KeyLocation.query("appid").help == "give it as the query parameter appid")
  }

  @Test func eachShapeIsItsAPIsOwn() throws {
    #expect(APIFamily.nwpcube.errorBody(status: .unauthorized, message: "m") == #"{"error":{"message":"m"}}"#)
    #expect(APIFamily.openMeteo.errorBody(status: .unauthorized, message: "m") == #"{"error":true,"reason":"m"}"#)
    #expect(
      APIFamily.openWeatherMap.errorBody(status: .unauthorized, message: "m")
        == #"{"cod":401,"message":"Invalid API key. m"}"#)
    #expect(APIFamily.openWeatherMap.errorBody(status: .tooManyRequests, message: "m") == #"{"cod":429,"message":"m"}"#)
    #expect(
      APIFamily.openWeatherMap.errorBody(status: .notFound, message: "city not found")
        == #"{"cod":"404","message":"city not found"}"#)
    #expect(APIFamily.darkSky.errorBody(status: .badRequest, message: "m") == #"{"code":400,"error":"m"}"#)
    let quoted = APIFamily.openMeteo.errorBody(status: .unauthorized, message: "why \"quoted\"")
    let object = try JSONSerialization.jsonObject(with: Data(quoted.utf8)) as? [String: Any]
    #expect(object?["reason"] as? String == "why \"quoted\"")
    #expect(APIFamily.openMeteo.errorResponse(status: .tooManyRequests, message: "m").status.code == 429)
  }
}
