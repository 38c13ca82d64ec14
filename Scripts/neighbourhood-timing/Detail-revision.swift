/// Another revision's neighbourhood, which may predate `counting` and `segmentCount`.
extension Built {
  var detail: String { "" }
}
