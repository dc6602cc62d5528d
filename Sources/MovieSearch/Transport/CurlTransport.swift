internal import CCurl
internal import CurlLoader
import Foundation
import Synchronization

/// libcurl declares its handles as `void`, so Swift sees raw pointers.
typealias CurlHandle = UnsafeMutableRawPointer

/// HTTP over libcurl's multi interface, driven by a thread of its own (`CurlEventLoop`): a request waits for its reply
/// without holding any other thread, any number travel at once up to `maxTransfersInFlight`, and connections are kept
/// open between requests. One instance per process and upstream; its thread ends with it.
public final class CurlTransport: HTTPTransport, BlockingHTTPTransport {
    public typealias Options = HTTPTransportOptions

    public let options: Options
    /// `nil` when libcurl could not be loaded; every request then fails with `loadError`.
    private let loop: CurlEventLoop?
    private let loadError: String?

    /// Loads libcurl (once per process) and makes the multi handle; the loop's thread starts with the first request.
    public init(options: Options) {
        self.options = options
        var error = [CChar](repeating: 0, count: 256)
        guard uquiz_curl_load(&error, error.count) == 0 else {
            loadError = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            loop = nil
            return
        }
        // This fails only when out of memory.
        guard let multi = uquiz_curl_multi_init() else {
            loadError = "libcurl could not make a handle"
            loop = nil
            return
        }
        loadError = nil
        uquiz_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnectionsPerHost)
        uquiz_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max(options.maxConnectionsPerHost, options.maxTransfersInFlight))
        loop = CurlEventLoop(multi: multi, options: options)
    }

    deinit {
        loop?.stop()
    }

    private func unavailable(_ request: HTTPRequest) -> TransportError {
        .failed(host: Redaction.host(of: request.url), detail: loadError ?? "no libcurl")
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPReply {
        guard let loop else { throw unavailable(request) }
        let ticket = TransferTicket()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPReply, TransportError>, Never>) in
                ticket.submit(request, to: loop) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            ticket.cancel(loop)
        }
        return try result.get()
    }

    public func sendBlocking(_ request: HTTPRequest) throws(TransportError) -> HTTPReply {
        guard let loop else { throw unavailable(request) }
        let done = DispatchSemaphore(value: 0)
        let reply = Mutex<Result<HTTPReply, TransportError>?>(nil)
        _ = loop.submit(request) { result in
            reply.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try reply.withLock { $0! }.get()
    }
}

/// One request's way into the loop, so that a cancellation that comes before the request is handed over (or while it
/// is) still reaches it.
private final class TransferTicket: Sendable {
    private enum State {
        case new
        case submitted(UInt64)
        case cancelled
    }
    private let state = Mutex(State.new)

    func submit(_ request: HTTPRequest, to loop: CurlEventLoop, completion: @escaping CurlEventLoop.Completion) {
        let cancelled = state.withLock { state -> Bool in
            guard case .new = state else { return true }
            state = .submitted(loop.submit(request, completion: completion))
            return false
        }
        if cancelled { completion(.failure(.cancelled(host: Redaction.host(of: request.url)))) }
    }

    func cancel(_ loop: CurlEventLoop) {
        let submitted = state.withLock { state -> UInt64? in
            defer { state = .cancelled }
            if case .submitted(let id) = state { return id }
            return nil
        }
        if let submitted { loop.cancel(submitted) }
    }
}

/// libcurl's multi handle and every transfer on it, owned by one thread that waits in `curl_multi_poll` and is woken by
/// `curl_multi_wakeup` when a request comes or goes. Other threads only put commands in the inbox; everything else
/// here is touched by the loop's thread alone, which is why the class may be shared.
final class CurlEventLoop: @unchecked Sendable {
    typealias Completion = @Sendable (Result<HTTPReply, TransportError>) -> Void

    private enum Command {
        case start(Transfer)
        case cancel(UInt64)
    }

    private struct Inbox {
        var commands: [Command] = []
        var nextID: UInt64 = 0
        var threadStarted = false
        var stopping = false
    }

    private final class Transfer {
        let id: UInt64
        let exchange: Exchange
        let completion: Completion
        let queuedAt = ContinuousClock.now
        var handle: CurlHandle?
        var headers: UnsafeMutablePointer<curl_slist>?

        init(id: UInt64, request: HTTPRequest, completion: @escaping Completion) {
            self.id = id
            self.exchange = Exchange(request: request)
            self.completion = completion
        }

        var host: String { Redaction.host(of: exchange.request.url) }
    }

    private let inbox = Mutex(Inbox())
    private let multi: CurlHandle
    private let options: HTTPTransportOptions
    // The loop thread's own.
    private var queue: [Transfer] = []
    private var running: [CurlHandle: Transfer] = [:]
    private var idle: [CurlHandle] = []

    init(multi: CurlHandle, options: HTTPTransportOptions) {
        self.multi = multi
        self.options = options
    }

    /// Hands `request` to the loop; `completion` is called once, on the loop's thread, with its outcome.
    func submit(_ request: HTTPRequest, completion: @escaping Completion) -> UInt64 {
        let (id, startThread) = inbox.withLock { inbox -> (UInt64, Bool) in
            inbox.nextID += 1
            inbox.commands.append(.start(Transfer(id: inbox.nextID, request: request, completion: completion)))
            defer { inbox.threadStarted = true }
            return (inbox.nextID, !inbox.threadStarted)
        }
        if startThread {
            let thread = Thread { self.run() }
            thread.name = "uquiz-curl"
            thread.start()
        }
        uquiz_curl_multi_wakeup(multi)
        return id
    }

    /// Stops the transfer `id` (its connection is closed) or takes it off the queue; its completion says `.cancelled`.
    func cancel(_ id: UInt64) {
        inbox.withLock { $0.commands.append(.cancel(id)) }
        uquiz_curl_multi_wakeup(multi)
    }

    /// Ends the loop: every transfer still there is cancelled, and the handles are freed by the loop's thread.
    func stop() {
        let threadStarted = inbox.withLock { inbox -> Bool in
            inbox.stopping = true
            return inbox.threadStarted
        }
        if threadStarted { uquiz_curl_multi_wakeup(multi) } else { uquiz_curl_multi_cleanup(multi) }
    }

    private func run() {
        while true {
            let (commands, stopping) = inbox.withLock { inbox in
                defer { inbox.commands = [] }
                return (inbox.commands, inbox.stopping)
            }
            for command in commands {
                switch command {
                case .start(let transfer): queue.append(transfer)
                case .cancel(let id): cancelTransfer(id)
                }
            }
            if stopping {
                shutDown()
                return
            }
            // Free slots are filled first: only a transfer still without one has waited its turn (a loop slow to
            // come round, on a loaded machine, expires nothing that could start).
            startWaiting()
            expireWaiting()
            var stillRunning: Int32 = 0
            uquiz_curl_multi_perform(multi, &stillRunning)
            collectFinished()
            startWaiting()
            uquiz_curl_multi_poll(multi, pollTimeoutMilliseconds())
        }
    }

    private func startWaiting() {
        while running.count < options.maxTransfersInFlight, !queue.isEmpty {
            let transfer = queue.removeFirst()
            guard let handle = idle.popLast() ?? uquiz_curl_easy_init() else {
                transfer.completion(.failure(.failed(host: transfer.host, detail: "libcurl could not make a handle")))
                continue
            }
            transfer.handle = handle
            transfer.headers = configure(handle, for: transfer.exchange, options: options)
            running[handle] = transfer
            uquiz_curl_multi_add_handle(multi, handle)
        }
    }

    /// Transfers that waited longer than the queue allows fail without starting.
    private func expireWaiting() {
        guard let limit = options.queueTimeout, !queue.isEmpty else { return }
        let now = ContinuousClock.now
        let overdue = queue.filter { now - $0.queuedAt >= .seconds(limit) }
        guard !overdue.isEmpty else { return }
        queue.removeAll { now - $0.queuedAt >= .seconds(limit) }
        for transfer in overdue { transfer.completion(.failure(.busy(host: transfer.host, waitedSeconds: limit))) }
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = uquiz_curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let transfer = running.removeValue(forKey: handle)
            else { continue }
            let code = message.pointee.data.result
            let result = Result { () throws(TransportError) in
                try transfer.exchange.finish(code: code, handle: handle, options: options)
            }
            release(transfer)
            transfer.completion(result)
        }
    }

    private func cancelTransfer(_ id: UInt64) {
        if let index = queue.firstIndex(where: { $0.id == id }) {
            let transfer = queue.remove(at: index)
            transfer.completion(.failure(.cancelled(host: transfer.host)))
        } else if let transfer = running.values.first(where: { $0.id == id }) {
            running[transfer.handle!] = nil
            release(transfer)
            transfer.completion(.failure(.cancelled(host: transfer.host)))
        }
    }

    /// Takes a transfer's handle off the multi handle (closing its connection when the transfer was not done) and keeps
    /// it for the next transfer.
    private func release(_ transfer: Transfer) {
        guard let handle = transfer.handle else { return }
        uquiz_curl_multi_remove_handle(multi, handle)
        uquiz_curl_slist_free_all(transfer.headers)
        transfer.handle = nil
        transfer.headers = nil
        idle.append(handle)
    }

    /// How long `curl_multi_poll` may wait: until the first queued transfer is overdue, and a second at most (a
    /// wake-up, libcurl's own timers and any socket's activity end it sooner).
    private func pollTimeoutMilliseconds() -> Int32 {
        guard let limit = options.queueTimeout, let first = queue.first else { return 1000 }
        let left = Duration.seconds(limit) - (ContinuousClock.now - first.queuedAt)
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, min(1000, milliseconds + 1)))
    }

    private func shutDown() {
        for transfer in Array(running.values) + queue {
            release(transfer)
            transfer.completion(.failure(.cancelled(host: transfer.host)))
        }
        running = [:]
        queue = []
        for handle in idle { uquiz_curl_easy_cleanup(handle) }
        idle = []
        uquiz_curl_multi_cleanup(multi)
    }
}

/// Sets every option for one exchange; returns the header list to free after the transfer.
private func configure(
    _ handle: CurlHandle, for exchange: Exchange, options: HTTPTransportOptions
) -> UnsafeMutablePointer<curl_slist>? {
    uquiz_curl_easy_reset(handle)  // keeps the handle's connections, forgets the previous request's options
    uquiz_easy_setopt_string(handle, CURLOPT_URL, exchange.request.url)
    let request = exchange.request
    if request.method == "GET" {
        uquiz_easy_setopt_long(handle, CURLOPT_HTTPGET, 1)
        uquiz_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
    } else {
        // Not followed: a redirected POST would be re-sent as a GET, or re-sent at all.
        uquiz_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
    }
    if let body = request.body {
        // The size first, so that the copy takes the bytes as they are (a body may hold NUL).
        uquiz_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        body.withUnsafeBytes { bytes in
            let empty: UInt8 = 0
            _ = withUnsafePointer(to: empty) { nothing in
                uquiz_easy_setopt_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(nothing)))
            }
        }
    }
    uquiz_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
    uquiz_easy_setopt_long(handle, CURLOPT_MAXREDIRS, 5)
    uquiz_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
    uquiz_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
    uquiz_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
    uquiz_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(options.totalTimeout * 1000))
    uquiz_easy_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent)
    // An empty string asks for every encoding this libcurl can decode (gzip, deflate, brotli, zstd as built).
    uquiz_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
    uquiz_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(exchange.request.maxBodyBytes))
    let context = Unmanaged.passUnretained(exchange).toOpaque()
    uquiz_easy_setopt_callback(handle, CURLOPT_WRITEFUNCTION, Exchange.receiveBody)
    uquiz_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
    uquiz_easy_setopt_callback(handle, CURLOPT_HEADERFUNCTION, Exchange.receiveHeader)
    uquiz_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
    var list: UnsafeMutablePointer<curl_slist>?
    for header in exchange.request.headers { list = uquiz_curl_slist_append(list, "\(header.name): \(header.value)") }
    uquiz_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
    return list
}

/// The state of one transfer, reached from libcurl's callbacks through an unretained pointer.
private final class Exchange {
    let request: HTTPRequest
    var body = Data()
    var headers: [String: String] = [:]
    var exceededLimit = false

    init(request: HTTPRequest) {
        self.request = request
    }

    static let receiveBody: uquiz_data_callback = { data, size, count, context in
        let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        // MAXFILESIZE only helps when the server announces a length; a chunked or lying body is cut here.
        guard exchange.body.count + length <= exchange.request.maxBodyBytes else {
            exchange.exceededLimit = true
            return 0
        }
        if let data { exchange.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length) }
        return length
    }

    static let receiveHeader: uquiz_data_callback = { data, size, count, context in
        let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard let data else { return length }
        switch HeaderLine(UnsafeRawBufferPointer(start: data, count: length)) {
        case .statusLine: exchange.headers = [:]  // a new response (after a redirect or a 100 Continue) starts afresh
        case let .field(name, value):
            exchange.headers[name] = value
            // One allocation for the body instead of a copy at every doubling (posters are tens of kilobytes).
            if name == "content-length", let length = Int(value), length <= exchange.request.maxBodyBytes {
                exchange.body.reserveCapacity(length)
            }
        case .other: break
        }
        return length
    }

    func finish(code: CURLcode, handle: CurlHandle, options: HTTPTransportOptions) throws(TransportError) -> HTTPReply {
        // Only failures name the host: a success does not pay for parsing the URL.
        var host: String { Redaction.host(of: request.url) }
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            throw .bodyTooLarge(host: host, limit: request.maxBodyBytes)
        }
        guard code == CURLE_OK else {
            let detail = String(cString: uquiz_curl_easy_strerror(code)).lowercased()
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
                throw .offline(host: host, detail: detail)
            case CURLE_OPERATION_TIMEDOUT:
                throw .timeout(host: host, seconds: options.totalTimeout)
            case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
                CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
                throw .tls(host: host, detail: detail)
            case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
                throw .connectionLost(host: host, detail: detail)
            default:
                throw .failed(host: host, detail: detail)
            }
        }
        var status = 0
        var connects = 0
        uquiz_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        uquiz_easy_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        return HTTPReply(status: status, headers: headers, body: body, newConnections: connects)
    }
}
