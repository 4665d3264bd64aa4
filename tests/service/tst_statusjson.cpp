#include "service/stores/StatusJson.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace jobdeck;
using nlohmann::json;

namespace {

std::string serialized(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// What the DOM path writes for a status with its requestId.
std::string withIdViaDom(ApiStatus status, const std::string& requestId) {
    status.requestId = requestId;
    return serialized(json(status));
}

std::string joined(const StatusJson::WithRequestId& answer) {
    return std::string(answer.head) + answer.tail;
}

} // namespace

class TestStatusJson final : public QObject {
    Q_OBJECT
private slots:
    void successWrittenAsTextEqualsTheDom() {
        const std::vector<json> responses = {
            json::object(),
            {{"showJobsApiResponse", {{"sparkJobs", json::array()}}}},
            {{"showJobsApiResponse",
              {{"sparkJobs",
                {{{"name", "a\"b\\c\n"}, {"cluster", "日本 😀"}, {"maxConcurrentRuns", 3}},
                 {{"name", std::string("bad \xff utf-8")}, {"parameters", {"--conf", "x=1"}}}}}}}},
            {{"zeta", 1}, {"alpha", {{"nested", nullptr}, {"list", {1.5, true, "s"}}}}},
        };
        for (const json& response : responses) {
            const StatusJson expected(ApiStatus::success(response));
            const StatusJson written =
                StatusJson::success([&](std::string& text) { text += serialized(response); });
            QCOMPARE(written.text(), expected.text());
            QCOMPARE(written.apiStatus(), ApiOperationStatus::Success);
            QVERIFY(!written.errorMessage());
            QVERIFY(written == expected);
        }
    }

    void withRequestIdEqualsTheDomWithItsId() {
        const std::vector<ApiStatus> statuses = {
            ApiStatus::success({{"describeJobApiResponse", {{"sparkJob", {{"name", "j"}}}}}}),
            ApiStatus::failed("Job j does not exist"), ApiStatus::invalid("Unexpected 'x' at 1:5"),
            ApiStatus::pending()};
        for (const ApiStatus& status : statuses)
            for (const std::string id : {"01a22d9d-3991-73bd-94a0-c3b9ab9430b6", "a \"quoted\" id\t", "é"}) {
                const StatusJson json(status);
                const auto answer = json.withRequestId(id);
                QCOMPARE(joined(answer), withIdViaDom(status, id));
                // The head views the stored text itself: nothing of a large status is copied.
                QCOMPARE(static_cast<const void*>(answer.head.data()),
                         static_cast<const void*>(json.text().data()));
                QCOMPARE(answer.text.get(), &json.text());
            }
    }

    void theSharedTextOutlivesTheStatus() {
        StatusJson::WithRequestId answer;
        {
            const StatusJson status(ApiStatus::success({{"k", std::string(100000, 'x')}}));
            answer = status.withRequestId("r-1");
        }
        std::vector<std::string> reuse(64, std::string(200000, '#')); // the freed memory, written over
        QCOMPARE(joined(answer), withIdViaDom(ApiStatus::success({{"k", std::string(100000, 'x')}}), "r-1"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestStatusJson)
#include "tst_statusjson.moc"
