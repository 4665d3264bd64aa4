#pragma once

// A scripted HTTP/1.1 server on loopback for the client's protocol tests: each request gets the
// answer `handler` returns, or, with std::nullopt, the connection is closed without an answer (a lost
// response), or, with kHang, no answer at all. Only what the client tests need; no Q_OBJECT, so it can
// live in a header shared by test files.

#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

#include <functional>
#include <memory>
#include <optional>

namespace jobdeck::test {

struct FakeRequest {
    QByteArray method;
    QByteArray target;                     // path and query
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;

    QByteArray path() const {
        return target.left(target.indexOf('?') < 0 ? target.size() : target.indexOf('?'));
    }
};

inline const QByteArray kHang = QByteArrayLiteral("<hang>");

inline QByteArray httpResponse(int status, const QByteArray& body,
                               const QList<std::pair<QByteArray, QByteArray>>& headers = {}) {
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + (status == 200 ? " OK" : " Error") + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n";
    for (const auto& [k, v] : headers)
        out += k + ": " + v + "\r\n";
    return out + "\r\n" + body;
}

class FakeHttpServer final {
public:
    using Handler = std::function<std::optional<QByteArray>(const FakeRequest&)>;

    explicit FakeHttpServer(Handler handler)
        : m_handler(std::move(handler)) {
        listen(0);
    }

    bool listen(quint16 port) {
        m_server = std::make_unique<QTcpServer>();
        QObject::connect(m_server.get(), &QTcpServer::newConnection, m_server.get(), [this] { accept(); });
        return m_server->listen(QHostAddress::LocalHost, port);
    }
    // Stops accepting and drops open connections: the service is gone.
    void close() {
        for (auto& s : m_open)
            if (s)
                s->abort();
        m_open.clear();
        m_server.reset();
    }
    quint16 port() const { return m_port ? m_port : (m_port = m_server->serverPort()); }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port()); }
    void setHandler(Handler handler) { m_handler = std::move(handler); }

    QList<FakeRequest> requests;
    int inFlight = 0;
    int maxInFlight = 0;

private:
    void accept() {
        while (QTcpSocket* socket = m_server->nextPendingConnection()) {
            m_open.append(socket);
            auto buffer = std::make_shared<QByteArray>();
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                *buffer += socket->readAll();
                const auto end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                FakeRequest request;
                const QList<QByteArray> lines = buffer->left(end).split('\n');
                const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
                request.method = first.value(0);
                request.target = first.value(1);
                for (int i = 1; i < lines.size(); ++i) {
                    const auto colon = lines[i].indexOf(':');
                    if (colon > 0)
                        request.headers.insert(lines[i].left(colon).trimmed().toLower(),
                                               lines[i].mid(colon + 1).trimmed());
                }
                const int length = request.headers.value("content-length", "0").toInt();
                if (buffer->size() < end + 4 + length)
                    return;
                request.body = buffer->mid(end + 4, length);
                buffer->clear();
                requests.append(request);
                ++inFlight;
                maxInFlight = std::max(maxInFlight, inFlight);
                const auto answer = m_handler(request);
                if (answer && *answer == kHang) {
                    QObject::connect(socket, &QTcpSocket::disconnected, socket, [this] { --inFlight; });
                    return;
                }
                --inFlight;
                if (answer) {
                    socket->write(*answer);
                    socket->flush();
                    socket->disconnectFromHost();
                } else {
                    socket->abort();
                }
            });
        }
    }

    Handler m_handler;
    std::unique_ptr<QTcpServer> m_server;
    QList<QPointer<QTcpSocket>> m_open;
    mutable quint16 m_port = 0;
};

} // namespace jobdeck::test
