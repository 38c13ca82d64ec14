import FaceKit
import Testing

@testable import HTTPService

/// `Coordinate`, the one range check of every face's points, and `FaceError`'s statuses.
@Suite struct CoordinateTests {
  static let expected = (latitude: "a latitude", longitude: "a longitude")

  @Test func theEdgesOfEachRangeAreAcceptedAndBeyondThemRefusedNamingTheParameter() throws {
    for (latitude, longitude) in [("-90", "-180"), ("90", "360"), ("0", "0"), ("38.7", "-9.1")] {
      let point = try Coordinate(
        latitude: latitude, longitude: longitude, names: ("lat", "lon"), expected: Self.expected)
      #expect(point.latitude == Double(latitude) && point.longitude == Double(longitude))
    }
    for (latitude, longitude, message) in [
      ("90.0001", "0", "lat: '90.0001' is out of range; give a latitude"),
      ("-91", "0", "lat: '-91' is out of range; give a latitude"),
      ("0", "360.5", "lon: '360.5' is out of range; give a longitude"),
      ("0", "-180.01", "lon: '-180.01' is out of range; give a longitude"),
      // The latitude's fault is named first.
      ("nan", "999", "lat: 'nan' is not a decimal number; give a latitude"),
    ] {
      #expect(throws: FaceError(.badParameter, message), "\(latitude),\(longitude)") {
        try Coordinate(latitude: latitude, longitude: longitude, names: ("lat", "lon"), expected: Self.expected)
      }
    }
  }

  @Test func signedLongitudesStopAt180() throws {
    let range = Coordinate.signedLongitudes
    #expect(try Coordinate.longitude("180", name: "longitude", expected: "e", in: range) == 180)
    #expect(throws: FaceError(.badParameter, "longitude: '180.5' is out of range; give e")) {
      try Coordinate.longitude("180.5", name: "longitude", expected: "e", in: range)
    }
  }

  @Test func aQuerysPointNeedsBothParametersReadLatitudeFirst() throws {
    let point = try QueryParameters("longitude=-9.1&latitude=38.7", maximumBytes: 100)
      .coordinate(expected: Self.expected)
    #expect(
      point
        == (try Coordinate(
          latitude: "38.7", longitude: "-9.1", names: ("latitude", "longitude"), expected: Self.expected)))
    #expect(throws: FaceError(.badParameter, "latitude: missing; give a latitude")) {
      try QueryParameters("longitude=x", maximumBytes: 100).coordinate(expected: Self.expected)
    }
    #expect(throws: FaceError(.badParameter, "longitude: empty; give a longitude")) {
      try QueryParameters("latitude=1&longitude=", maximumBytes: 100).coordinate(expected: Self.expected)
    }
  }

  @Test func eachKindOfFaceErrorHasItsStatus() {
    #expect(FaceError(.badParameter, "m").status == .badRequest)
    #expect(FaceError(.tooLong, "m").status == .uriTooLong)
    #expect(FaceError(.notFound, "m").status == .notFound)
    #expect(FaceError(.unavailable, "m").status == .serviceUnavailable)
    #expect(FaceError.parameter("lat", "missing") == FaceError(.badParameter, "lat: missing"))
  }

  /// A malformed key is never echoed, whichever API's key parameter it is.
  @Test func aRequestsMalformedKeyIsNotQuoted() {
    for name in ["apikey", "appid"] {
      do {
        _ = try QueryParameters(request: "\(name)=s%ZZecret", maximumBytes: 100)
        Issue.record("\(name) was read")
      } catch {
        #expect(!error.description.contains("ecret") && error.description.contains("(redacted)"), "\(error)")
      }
    }
  }
}
