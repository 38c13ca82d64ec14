import FaceKit
import Forecast
import Foundation
import NIOCore
import Places
import Warnings

/// What a server serves and where: the store, the address, the limits, the load it takes
/// on and the clock.
public struct ServiceSettings: Sendable {
  /// The store directory (`STORE/<model>/<domain>/<run>.cube`).
  public var store: String
  /// The address to listen on; 127.0.0.1 by default, so that serving the world is a choice
  /// (`--host 0.0.0.0`).
  public var host: String
  /// The port; 0 picks a free one (the tests do).
  public var port: Int
  /// What one request may ask for.
  public var limits: ServiceLimits
  /// How many requests the server works on at once, over all clients and for one.
  public var load = LoadLimits()
  /// The limiter that enforces `load`; nil makes one. A test passes its own, to fill it
  /// through its API and see what the server then answers.
  var limiter: LoadLimiter?
  /// How long a connection may stay idle before the server closes it, so that idle or
  /// stalled clients cannot hold connections for ever.
  public var idleTimeout: TimeAmount
  /// How long a graceful shutdown drains before the server stops listening: `/healthz`
  /// answers 503 (`draining`) and every other route still answers, so that a load balancer
  /// takes the replica out before it refuses connections. Zero (the default here; `serve`
  /// has its own) stops at once.
  public var drainPeriod: Duration = .zero
  /// Whether a second SIGTERM or SIGINT during the drain ends it early. Only `nwpcube
  /// serve`, whose process handles those signals, sets it: listening for them makes a
  /// process ignore their default action, which a test runner hosting servers must keep.
  public var secondSignalEndsDrain = false
  /// Whether the store's cubes are held with read leases (`CubeLeases`), so that a cube
  /// changed in place is withdrawn instead of crashing the server, and a SIGBUS ends the
  /// process at once (`CubeLeases.exitOnBusError`). Both are signal handlers for the whole
  /// process that last as long as it, so only `nwpcube serve` sets it.
  public var leasesCubes = false
  /// Unix seconds now. `/v1/forecast` counts days from today and gives current conditions
  /// now; a test sets the clock inside its sample run.
  public var clock: @Sendable () -> Int64
  /// The API keys required, nil for none (`--keys`).
  public var keys: APIKeySettings?
  /// The places `/v1/search` finds, indexed once at start-up; nil when search is not offered.
  public var places: Gazetteer?
  /// The zones of points, for `/v1/forecast`'s `timezone=auto`; nil takes the nearest place's
  /// zone from `places`, and refuses `auto` without them.
  public var zoneFinder: ZoneFinder?
  /// The thresholds `/v1/alerts` evaluates (`--alerts`); nil when the server publishes no
  /// warnings.
  public var alerts: WarningRules?
  /// The path of `rsvg-convert`, which draws `/v1/meteogram.svg?format=png`; nil looks for
  /// it on `PATH`. Without it PNG is refused with 503 and SVG is served as ever.
  public var rsvgConvert: String?
  /// Dark Sky outlooks (`hourly`, `daily` and warnings of one point and hour) kept for the
  /// requests that ask for the same point in the same hour (`--darksky-outlooks`); 0 keeps
  /// none.
  public var darkSkyOutlooks = 512
  /// Bytes of recent GET answers (`/v1/forecast`, Dark Sky, OpenWeatherMap, the legacy
  /// endpoints) kept to send again to the same request while the store and the time they
  /// depend on are unchanged (`--answer-cache`, in MiB); 0 keeps none.
  public var answerCacheBytes = 64 << 20
  /// The most answers kept, whatever their size: a bound on the cache's bookkeeping.
  public var answerCacheEntries = 16_384
  /// Bytes per second the background verifier reads the served cubes' not-yet-verified
  /// blocks at (`--verify-rate`, in MiB/s); 0 turns it off, leaving each block to be
  /// verified when a request first reads it (`CubeVerifierService`).
  public var verifyBytesPerSecond = ServiceSettings.defaultVerifyBytesPerSecond
  /// `verifyBytesPerSecond`'s default: 64 MiB/s, a small share of a disk's bandwidth, which
  /// still verifies eight global runs (11 GB) in about three minutes.
  public static let defaultVerifyBytesPerSecond = 64 << 20
  /// CAP's `sender` of `/v1/alerts.cap` (`--alerts-sender`): `nwpcube@<host name>` unless set.
  public var alertsSender = "nwpcube@" + ProcessInfo.processInfo.hostName

  public init(
    store: String, host: String = "127.0.0.1", port: Int = 8080, limits: ServiceLimits = ServiceLimits(),
    idleTimeout: TimeAmount = .seconds(60),
    clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970.rounded(.down)) },
    keys: APIKeySettings? = nil, places: Gazetteer? = nil
  ) {
    self.store = store
    self.host = host
    self.port = port
    self.limits = limits
    self.idleTimeout = idleTimeout
    self.clock = clock
    self.keys = keys
    self.places = places
  }
}

/// What one request may ask for: the limits keep each request's cost bounded.
public struct ServiceLimits: Sendable {
  /// Locations in one `/v1/forecast` request.
  public var locations: Int
  /// Days one `/v1/forecast` request covers (`past_days + forecast_days`, or
  /// `start_date…end_date`).
  public var days: Int
  /// Bytes in a query string; longer ones get 414.
  public var queryBytes: Int

  /// Limits of at most `Forecaster.dayLimit` days (16): more is what the library refuses.
  public init(locations: Int = 100, days: Int = Forecaster.dayLimit.upperBound, queryBytes: Int = 8_192) {
    self.locations = locations
    self.days = min(days, Forecaster.dayLimit.upperBound)
    self.queryBytes = queryBytes
  }
}
