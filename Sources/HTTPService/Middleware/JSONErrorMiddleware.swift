import Hummingbird
import Logging

/// Turns every error a route throws into a response with a JSON body in its route's API
/// family's shape (`JSONErrorBody`), so that no client ever gets an empty or HTML error.
///
/// Errors that know their status (`JSONErrorResponse`) say it; Hummingbird's own (`404`
/// for a path without a route) keep theirs and get a message; anything else is the
/// server's fault, a 500 that is logged with its cause and told to the client without it.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as any JSONErrorResponse {
      return try JSONErrorBody.response(
        status: error.status, message: error.message, request: request, context: context)
    } catch let error as any HTTPResponseError {
      let message =
        error.status == .notFound
        // The path as the log writes it: Dark Sky's carries a key, which no answer may echo.
        ? "no route for \(request.method) \(APIFamily.redacting(request.uri.path)); "
          + "the API is described at \(ServiceRoutes.openAPIPath)"
        : error.status.reasonPhrase
      return try JSONErrorBody.response(status: error.status, message: message, request: request, context: context)
    } catch {
      context.logger.error("request failed", metadata: ["error": "\(error)"])
      return try JSONErrorBody.response(
        status: .internalServerError, message: "internal error; the server log has the cause", request: request,
        context: context)
    }
  }
}
