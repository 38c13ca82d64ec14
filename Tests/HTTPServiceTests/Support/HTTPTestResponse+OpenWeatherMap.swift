/// OpenWeatherMap's error body.
extension HTTPTestResponse {
  /// The message of an OpenWeatherMap error body `{"cod": "404", "message": "…"}`, exactly
  /// those two members with `cod` the status as a string (a number for 401 and 429); nil
  /// when the body is not one.
  var openWeatherMapMessage: String? {
    guard let object = json as? [String: Any], object.count == 2 else { return nil }
    let cod = object["cod"]
    let numeric = status == 401 || status == 429
    guard numeric ? (cod as? Int) == status : (cod as? String) == String(status) else { return nil }
    return object["message"] as? String
  }
}
