internal import CCurl
internal import CurlLoader
import Foundation
import Synchronization

/// libcurl declares its handles as `void`, so Swift sees raw pointers.
typealias CurlHandle = UnsafeMutableRawPointer

/// HTTP over libcurl. One instance per process: its easy handle (for one request at a time) and its multi handle with
/// a pool of easy handles (for many at once) keep their connections open between requests.
public final class CurlTransport: HTTPTransport {
    public typealias Options = HTTPTransportOptions

    private struct Handles: @unchecked Sendable {
        /// For `send`.
        var single: CurlHandle
        /// For `sendAll`, with `pool` easy handles that keep their connections between calls.
        var multi: CurlHandle
        var pool: [CurlHandle] = []
    }

    public let options: Options
    /// `nil` when libcurl could not be loaded; every request then fails with `loadError`.
    private let handles: Mutex<Handles?>
    private let loadError: String?

    /// Loads libcurl (once per process) and makes the reusable handles.
    public init(options: Options) {
        self.options = options
        var error = [CChar](repeating: 0, count: 256)
        guard uquiz_curl_load(&error, error.count) == 0 else {
            loadError = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            handles = Mutex(nil)
            return
        }
        // These fail only when out of memory.
        guard let single = uquiz_curl_easy_init(), let multi = uquiz_curl_multi_init() else {
            loadError = "libcurl could not make a handle"
            handles = Mutex(nil)
            return
        }
        loadError = nil
        uquiz_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnectionsPerHost)
        uquiz_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, options.maxConnectionsPerHost)
        handles = Mutex(Handles(single: single, multi: multi))
    }

    deinit {
        handles.withLock { handles in
            guard let handles else { return }
            uquiz_curl_easy_cleanup(handles.single)
            for handle in handles.pool { uquiz_curl_easy_cleanup(handle) }
            uquiz_curl_multi_cleanup(handles.multi)
        }
    }

    private func unavailable(_ request: HTTPRequest) -> TransportError {
        .failed(host: Redaction.host(of: request.url), detail: loadError ?? "no libcurl")
    }

    /// Sends one request and waits for the whole reply.
    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPReply {
        try handles.withLock { (handles) throws(TransportError) -> HTTPReply in
            guard let single = handles?.single else { throw unavailable(request) }
            let exchange = Exchange(request: request)
            let headers = configure(single, for: exchange)
            defer { uquiz_curl_slist_free_all(headers) }
            let code = uquiz_curl_easy_perform(single)
            return try exchange.finish(code: code, handle: single, options: options)
        }
    }

    /// Sends every request, at most `maxConnectionsPerHost` at once per host, and returns the outcomes in the order given.
    /// `finished` is called with the count done so far after each transfer, for progress bars.
    public func sendAll(
        _ requests: [HTTPRequest], finished: (Int) -> Void
    ) -> [Result<HTTPReply, TransportError>] {
        handles.withLock { handles in
            guard handles != nil else { return requests.map { .failure(unavailable($0)) } }
            return transferAll(requests, with: &handles!, finished: finished)
        }
    }

    private func transferAll(
        _ requests: [HTTPRequest], with handles: inout Handles, finished: (Int) -> Void
    ) -> [Result<HTTPReply, TransportError>] {
        let multi = handles.multi
        while handles.pool.count < min(requests.count, options.maxConnectionsPerHost) {
            handles.pool.append(uquiz_curl_easy_init()!)
        }
        var results = [Result<HTTPReply, TransportError>?](repeating: nil, count: requests.count)
        var waiting = Array(requests.indices.reversed())
        var idle = handles.pool
        var running: [CurlHandle: (index: Int, exchange: Exchange, headers: UnsafeMutablePointer<curl_slist>?)] = [:]

        func startMore() {
            while let handle = idle.popLast() {
                guard let index = waiting.popLast() else {
                    idle.append(handle)
                    return
                }
                let exchange = Exchange(request: requests[index])
                let headers = configure(handle, for: exchange)
                running[handle] = (index, exchange, headers)
                uquiz_curl_multi_add_handle(multi, handle)
            }
        }

        startMore()
        var stillRunning: Int32 = 0
        repeat {
            uquiz_curl_multi_perform(multi, &stillRunning)
            var queued: Int32 = 0
            while let message = uquiz_curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = running.removeValue(forKey: handle)
                else { continue }
                let code = message.pointee.data.result
                uquiz_curl_multi_remove_handle(multi, handle)
                uquiz_curl_slist_free_all(transfer.headers)
                results[transfer.index] = Result { () throws(TransportError) in
                    try transfer.exchange.finish(code: code, handle: handle, options: options)
                }
                idle.append(handle)
                finished(results.count { $0 != nil })
            }
            startMore()
            if !running.isEmpty { uquiz_curl_multi_poll(multi, 1000) }
        } while !running.isEmpty
        return results.map { $0! }
    }

    /// Sets every option for one exchange; returns the header list to free after the transfer.
    private func configure(_ handle: CurlHandle, for exchange: Exchange) -> UnsafeMutablePointer<curl_slist>? {
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
                withUnsafePointer(to: empty) { nothing in
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

    func finish(code: CURLcode, handle: CurlHandle, options: CurlTransport.Options) throws(TransportError) -> HTTPReply {
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
