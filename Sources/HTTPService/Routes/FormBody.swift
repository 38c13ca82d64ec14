import FaceKit
import Hummingbird
import NIOCore

/// A POST's form body (`application/x-www-form-urlencoded`), read as the query string of an
/// equivalent GET: how Open-Meteo's clients send a request too long for a URL.
enum FormBody {
  /// The routed paths that take a form by POST as well as a query by GET.
  static let paths: Set<String> = [ForecastRoute.path]

  /// The content type of a form.
  static let contentType = "application/x-www-form-urlencoded"

  /// The body of `request` as text, at most `maximumBytes` long.
  /// - Throws: `APIError` 415 for another content type, 413 for a longer body, 400 for a
  ///   body that is not UTF-8.
  static func read(_ request: inout Request, maximumBytes: Int) async throws -> String {
    let type = request.headers[.contentType] ?? ""
    // Parameters such as `; charset=utf-8` may follow the media type, whose case does not matter.
    let mediaType = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
    guard mediaType?.lowercased() == contentType else {
      throw APIError(
        .unsupportedMediaType,
        "a POST body must be a form, Content-Type \(contentType)"
          + (type.isEmpty ? ", and none was given" : "; this one is \(QueryParameters.quoted(type))"))
    }
    let body: ByteBuffer
    do {
      body = try await request.collectBody(upTo: maximumBytes)
    } catch is NIOTooManyBytesError {
      throw APIError(.contentTooLarge, "the form body is longer than \(maximumBytes) bytes, the most accepted")
    }
    guard let text = String(validating: body.readableBytesView, as: UTF8.self) else {
      throw APIError(.badRequest, "the form body is not UTF-8 text")
    }
    return text
  }
}
