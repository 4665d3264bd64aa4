// Replays the saved corpus of fuzz_httprequest (tests/fuzz-corpus/fuzz_httprequest/) through its check:
// the server's request parsing, limits, routing and statement body reading, without a socket.
#include "fuzz/HttpFuzzEntries.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/FuzzCorpusReplay.h"

#include <QTest>

namespace jobdeck {

class TestHttpFuzzCorpus final : public QObject {
    Q_OBJECT

private slots:
    void httpRequestCorpus() { replayFuzzCorpus(QStringLiteral("fuzz_httprequest"), fuzz::checkHttpRequest); }

    // Known inputs give what the server gives for them.
    void knownInputsPass() {
        QVERIFY(fuzz::checkHttpRequest("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").empty());
        const std::string duplicate = "POST /v1/resource/ HTTP/1.1\r\nContent-Length: 37\r\n\r\n"
                                      R"({"statement":"A","statement":"B"}   )";
        QVERIFY(fuzz::checkHttpRequest(duplicate).empty());
        auto parsed = HttpRequestParser::parse("GET /v1/x%FF HTTP/1.1\r\n\r\n", HttpServerOptions{});
        QVERIFY(std::holds_alternative<HttpRequest>(parsed));
        QCOMPARE(std::get<HttpRequest>(parsed).path, std::string("/v1/x\xff"));
        auto refused = HttpRequestParser::parse("GET /v1/x%F HTTP/1.1\r\n\r\n", HttpServerOptions{});
        QVERIFY(std::holds_alternative<HttpResponse>(refused));
        QCOMPARE(std::get<HttpResponse>(refused).status, 400);
        QVERIFY(std::holds_alternative<std::monostate>(
            HttpRequestParser::parse("GET /v1/health HTTP/1.1\r\nHost:", HttpServerOptions{})));
        const auto statement = HttpStatementRoutes::readStatement(R"({"statement":"A","statement":"B"})");
        QVERIFY(std::holds_alternative<HttpResponse>(statement));
        QCOMPARE(std::get<HttpResponse>(statement).status, 400);
    }
};

} // namespace jobdeck

JOBDECK_TEST_GUILESS_MAIN(jobdeck::TestHttpFuzzCorpus)
#include "tst_httpfuzzcorpus.moc"
