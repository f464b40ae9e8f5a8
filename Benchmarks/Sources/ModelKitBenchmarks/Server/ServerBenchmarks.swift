import Foundation

#if Hummingbird
    import Hummingbird
    import ModelKit
    import ModelKitHummingbird

    // One Hummingbird route, `POST /timeline`: the body decoded into models and the models
    // encoded back as the response, once through ModelKit's coders (ModelRequestContext) and once
    // through the framework's default, JSONDecoder and JSONEncoder on the same fields as Codable
    // structs (dates in Twitter's format, as the JSON comparisons set them). Both servers run in
    // this process on loopback; the load generator's connections alternate between them.

    extension CodableTimeline: ResponseEncodable {}

    /// Hummingbird's default coders, JSONDecoder and JSONEncoder, set for Twitter's dates.
    struct FoundationCodersContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        init(source: ApplicationRequestContextSource) { coreContext = CoreRequestContextStorage(source: source) }

        static let decoder = corpusJSONDecoder("twitter")
        static let encoder = {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .formatted(twitterDateFormatter())
            return encoder
        }()

        var requestDecoder: JSONDecoder { Self.decoder }
        var responseEncoder: JSONEncoder { Self.encoder }
    }

    /// The port a server listens on, once it does.
    private final class PortBox: @unchecked Sendable {
        // @unchecked: written once, before `ready` is signalled, and read after waiting for it.
        var port = 0
        let ready = DispatchSemaphore(value: 0)
    }

    /// Starts `router`'s application on a free loopback port; returns the port.
    private func startServer<Context: RequestContext>(_ router: Router<Context>) -> Int
    where Context.Source == ApplicationRequestContextSource {
        let box = PortBox()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                box.port = channel.localAddress?.port ?? 0
                box.ready.signal()
            })
        Task { try await app.runService() }
        box.ready.wait()
        return box.port
    }

    func serverBenchmarks(_ arguments: [String]) throws {
        setenv("LOG_LEVEL", "error", 1)  // Hummingbird's applications log each start at info
        let twitter = try resource("twitter.json")
        guard let document = try JSONSerialization.jsonObject(with: twitter) as? [String: Any],
            let statuses = document["statuses"] as? [Any], !statuses.isEmpty
        else { throw BenchmarkError("twitter.json has no statuses") }
        let one = try JSONSerialization.data(withJSONObject: ["statuses": Array(statuses.prefix(1))])
        let payloads: [(name: String, body: Data, count: Int)] = [
            ("server.route.twitter", twitter, statuses.count),
            ("server.route.status", one, 1),
        ]

        let modelKit = Router(context: ModelRequestContext.self)
        modelKit.post("timeline") { request, context in
            ModelResponse(try await request.decode(as: BenchTimeline.self, context: context))
        }
        let foundation = Router(context: FoundationCodersContext.self)
        foundation.post("timeline") { request, context -> CodableTimeline in
            try await request.decode(as: CodableTimeline.self, context: context)
        }
        let ports = (modelKit: startServer(modelKit), foundation: startServer(foundation))
        let connections = 2
        let (rounds, seconds) = (5, 1.5)
        for payload in payloads where arguments.contains(where: payload.name.hasPrefix) {
            let ours = LoadGenerator(port: ports.modelKit, path: "/timeline", body: payload.body, connections: connections)
            let theirs = LoadGenerator(port: ports.foundation, path: "/timeline", body: payload.body, connections: connections)
            // Both routes answer, with every status.
            for (side, generator) in [("ModelKit", ours), ("Foundation", theirs)] {
                let (status, body) = try generator.exchange()
                let answer = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
                guard status == 200, (answer?["statuses"] as? [Any])?.count == payload.count else {
                    throw BenchmarkError("\(payload.name): the \(side) route answered \(status), \(body.count) bytes")
                }
            }
            _ = try ours.requestsPerSecond(seconds: 0.5)  // warm up
            _ = try theirs.requestsPerSecond(seconds: 0.5)
            var (mine, base, ratios) = ([Double](), [Double](), [Double]())
            for _ in 0..<rounds {
                let a = try ours.requestsPerSecond(seconds: seconds)
                let b = try theirs.requestsPerSecond(seconds: seconds)
                (mine, base, ratios) = (mine + [a], base + [b], ratios + [a / b])
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            print(
                "\(payload.name): modelkit \(format(median(mine))) requests/s, Hummingbird with JSONDecoder/JSONEncoder "
                    + "\(format(median(base))) requests/s, ratio \(format(median(ratios)))x")
            print("  \(payload.body.count) bytes in, \(payload.count) statuses, \(connections) connections, \(rounds) rounds of \(seconds) s")
        }
    }
#else
    func serverBenchmarks(_ arguments: [String]) throws {
        print("server.route: needs the Hummingbird trait (swift build -c release --traits Hummingbird)")
    }
#endif
