#include "core/SparkJobListDecoder.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace jobdeck;
using nlohmann::json;

namespace {

// What the DOM path gives for a job list: the jobs, or the exception's message.
struct Outcome {
    std::vector<SparkJob> jobs;
    std::string error;
    bool operator==(const Outcome&) const = default;
};

Outcome viaDom(const std::string& text) {
    try {
        return {json::parse(text).get<std::vector<SparkJob>>(), {}};
    } catch (const json::exception& e) {
        return {{}, e.what()};
    }
}

// The list's jobs, decoded from their text. A summary that is not its job's, or a listed job that does
// not decode (the list should have refused it), makes the outcome differ.
std::vector<SparkJob> jobsOf(const SparkJobList& list, std::string& error) {
    std::vector<SparkJob> jobs;
    try {
        jobs = list.jobs();
    } catch (const json::exception& e) {
        error = std::string("a listed job does not decode: ") + e.what();
        return {};
    }
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (!(list.summary(i) == summaryOf(jobs[i])))
            error = "the summary of job " + std::to_string(i) + " is not the job's";
    return jobs;
}

// The decoder's list over its own copy of the text, so views into the caller's string could not pass.
SparkJobList decodeList(std::string_view text) {
    auto owner = std::make_shared<const std::string>(text);
    return SparkJobListDecoder::decodeList(*owner, owner);
}

SparkJobListDecoder::Status decodeStatus(std::string_view text) {
    auto owner = std::make_shared<const std::string>(text);
    return SparkJobListDecoder::decodeStatus(*owner, owner);
}

SparkJobListDecoder::Status decodeStatus(const std::shared_ptr<StreamedText>& text) {
    return SparkJobListDecoder::decodeStatus(text);
}

Outcome viaDecoder(const std::string& text) {
    SparkJobList list;
    try {
        list = decodeList(text);
    } catch (const json::exception& e) {
        return {{}, e.what()};
    }
    Outcome outcome;
    outcome.jobs = jobsOf(list, outcome.error);
    return outcome;
}

bool isParseError(const std::string& text) {
    try {
        decodeStatus(text);
    } catch (const json::parse_error&) {
        return true;
    }
    return false;
}

// What decodeStatus gives: the envelope, the jobs or their problem, or the parse error's message.
struct StatusOutcome {
    std::string envelope;
    std::optional<std::vector<SparkJob>> jobs;
    std::optional<std::string> jobsError;
    std::string parseError;
    bool operator==(const StatusOutcome&) const = default;
};

template <class Text> StatusOutcome decodedStatus(Text&& text) {
    try {
        auto status = decodeStatus(text);
        StatusOutcome outcome{status.envelope.dump(), {}, std::move(status.jobsError), {}};
        if (status.jobs)
            outcome.jobs = jobsOf(*status.jobs, outcome.parseError);
        return outcome;
    } catch (const json::parse_error& e) {
        return {{}, {}, {}, e.what()};
    }
}

// decodeStatus over a StreamedText of `capacity` bytes that another thread fills with `text` in pieces
// of random sizes (1 to maxPiece bytes), pausing now and then, and then finishes.
StatusOutcome decodedWhileArriving(const std::string& text, std::size_t capacity, unsigned seed,
                                   int maxPiece) {
    const auto shared = std::make_shared<StreamedText>(capacity);
    StreamedText& stream = *shared;
    std::thread writer([&] {
        std::mt19937 random(seed);
        std::size_t at = 0;
        while (at < text.size()) {
            const std::size_t n =
                std::min({text.size() - at, stream.room(), 1 + random() % static_cast<unsigned>(maxPiece)});
            std::copy_n(text.data() + at, n, stream.writeArea());
            stream.commit(n);
            at += n;
            if (random() % 16 == 0)
                std::this_thread::yield();
        }
        stream.finish();
    });
    StatusOutcome outcome = decodedStatus(shared);
    writer.join();
    return outcome;
}

// Random jobs as JSON text, written member by member so key order, spacing, escapes and duplicate keys
// vary as they never would from json::dump.
class Generator final {
public:
    explicit Generator(unsigned seed)
        : m_random(seed) {}

    int below(int n) { return static_cast<int>(m_random() % static_cast<unsigned>(n)); }
    bool chance(int percent) { return below(100) < percent; }

    std::string text() {
        static const char* pieces[] = {"a", "Z",  "_",  "7",      " ",       "\"",      "\\",
                                       "/", "\n", "\t", "\x01",   "\x1f",    "é",       "日本",
                                       "😀", "ß",  "=",  "hoodie", "--class", "\xc2\xa0"};
        std::string s;
        for (int n = below(6); n > 0; --n)
            s += pieces[below(static_cast<int>(std::size(pieces)))];
        return s;
    }

    // A value of any kind, for unknown fields.
    json anything(int depth = 0) {
        switch (below(depth > 2 ? 5 : 7)) {
        case 0:
            return nullptr;
        case 1:
            return chance(50);
        case 2:
            return below(2000) - 1000;
        case 3:
            return below(1000) / 7.0;
        case 4:
            return text();
        case 5: {
            json a = json::array();
            for (int n = below(4); n > 0; --n)
                a.push_back(anything(depth + 1));
            return a;
        }
        default: {
            json o = json::object();
            for (int n = below(4); n > 0; --n)
                o[text()] = anything(depth + 1);
            return o;
        }
        }
    }

    json strings() {
        json a = json::array();
        for (int n = below(5); n > 0; --n)
            a.push_back(text());
        return a;
    }

    json stringMap() {
        json o = json::object();
        for (int n = below(4); n > 0; --n)
            o[text()] = text();
        return o;
    }

    std::string timestamp() {
        static const char* forms[] = {"2026-11-30T05:01:46.123Z", "2026-02-28T23:59:59Z",
                                      "2025-01-01T00:00:00.5+02:00", "2024-02-29T12:00:00.123456789-05:30"};
        return forms[below(4)];
    }

    // A valid job's members; optional ones are sometimes absent or null.
    std::vector<std::pair<std::string, json>> validMembers() {
        std::vector<std::pair<std::string, json>> m;
        const auto optional = [&](const char* key, json value) {
            if (chance(20))
                return;
            m.emplace_back(key, chance(15) ? json(nullptr) : std::move(value));
        };
        m.emplace_back("jobId", text());
        m.emplace_back("name", text());
        m.emplace_back("type", chance(50) ? "JAR" : "PYTHON");
        m.emplace_back("cluster", text());
        m.emplace_back("parameters", strings());
        m.emplace_back("createdAt", timestamp());
        m.emplace_back("updatedAt", timestamp());
        optional("applicationPath", text());
        optional("arguments", strings());
        optional("sparkConfigs", stringMap());
        optional("hudiConfigs", stringMap());
        optional("maxConcurrentRuns", below(100000) - 50);
        optional("activeRuns", below(10));
        json status = json::object();
        static const char* statuses[] = {"APPLIED", "NOT_ALLOWED", "RESERVED", "OVERRIDDEN_BY_PLATFORM"};
        for (int n = below(3); n > 0; --n)
            status[text()] = statuses[below(4)];
        optional("hudiConfigsStatus", status);
        optional("misplacedHudiConfigs", strings());
        for (int n = below(3); n > 0; --n)
            m.emplace_back("unknown" + text(), anything());
        return m;
    }

    // A value from_json refuses for `key` (or, for some keys, one it accepts: the test compares).
    json wrongValue(const std::string& key) {
        switch (below(8)) {
        case 0:
            return json::array({1, "x"});
        case 1:
            return json::object({{"k", 1}, {"a", "s"}, {"z", nullptr}});
        case 2:
            return 3.5;
        case 3:
            return key == "type" ? json("SCALA") : json(true);
        case 4:
            return json("2026-02-30T00:00:00Z");
        case 5:
            return json(4294967296LL);
        case 6:
            return json::parse("18446744073709551616");
        default:
            return key == "hudiConfigsStatus" ? json({{"b", "APPLIED"}, {"a", "MAYBE"}}) : json(nullptr);
        }
    }

    std::string dump(const json& v) {
        // ensure_ascii writes every non-ASCII character as \u escapes (surrogate pairs included).
        return v.dump(-1, ' ', chance(30));
    }

    std::string space() {
        return chance(20) ? std::string(" \n\t\r").substr(static_cast<std::size_t>(below(4))) : "";
    }

    std::string object(std::vector<std::pair<std::string, json>> members) {
        std::shuffle(members.begin(), members.end(), m_random);
        std::string s = "{" + space();
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (i)
                s += "," + space();
            s += dump(members[i].first) + space() + ":" + space() + dump(members[i].second) + space();
        }
        return s + "}";
    }

    std::string job(bool mayBeInvalid) {
        auto members = validMembers();
        if (mayBeInvalid && chance(50)) {
            const auto at = static_cast<std::size_t>(below(static_cast<int>(members.size())));
            switch (below(4)) {
            case 0: // a required or optional field gone
                members.erase(members.begin() + static_cast<std::ptrdiff_t>(at));
                break;
            case 1: // a wrong value
                members[at].second = wrongValue(members[at].first);
                break;
            case 2: // a wrong value that a later duplicate replaces
                members.insert(members.begin() + static_cast<std::ptrdiff_t>(at),
                               {members[at].first, wrongValue(members[at].first)});
                break;
            default: // a good value that a later wrong duplicate replaces
                members.emplace_back(members[at].first, wrongValue(members[at].first));
                break;
            }
        }
        // Duplicates must stay in order (the last one counts): shuffle only when there are none.
        std::set<std::string> keys;
        bool duplicates = false;
        for (const auto& [k, v] : members)
            duplicates = !keys.insert(k).second || duplicates;
        if (!duplicates)
            return object(std::move(members));
        std::string s = "{";
        for (std::size_t i = 0; i < members.size(); ++i)
            s += (i ? "," : "") + dump(members[i].first) + ":" + dump(members[i].second);
        return s + "}";
    }

    std::string list(int jobs, bool mayBeInvalid) {
        std::string s = "[" + space();
        for (int i = 0; i < jobs; ++i)
            s +=
                (i ? "," + space() : "") + (mayBeInvalid && chance(3) ? dump(anything()) : job(mayBeInvalid));
        return s + space() + "]";
    }

private:
    std::mt19937 m_random;
};

std::string envelope(const std::string& status, const std::string& jobs) {
    return R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":)" + jobs + R"(,"next":null},"x":[1]},)" +
           R"("apiStatus":")" + status + R"(","requestId":"r-1"})";
}

} // namespace

class TestSparkJobListDecoder final : public QObject {
    Q_OBJECT
private slots:
    void validListsEqualFromJson() {
        Generator g(1);
        std::size_t jobs = 0;
        for (int round = 0; round < 400; ++round) {
            const std::string text = g.list(g.below(40), false); // past 16 jobs the decoder reserves room
            const Outcome expected = viaDom(text);
            QVERIFY2(expected.error.empty(), expected.error.c_str());
            QVERIFY2(viaDecoder(text) == expected, text.c_str());
            jobs += expected.jobs.size();
        }
        QVERIFY(jobs > 1500);
    }

    void invalidListsGiveFromJsonsMessage() {
        Generator g(2);
        int refused = 0;
        for (int round = 0; round < 1500; ++round) {
            const std::string text = g.list(1 + g.below(4), true);
            const Outcome expected = viaDom(text);
            const Outcome actual = viaDecoder(text);
            QVERIFY2(actual == expected,
                     (text + "\n  from_json: " + expected.error + "\n  decoder: " + actual.error).c_str());
            refused += !expected.error.empty();
        }
        QVERIFY(refused > 300); // the generator does make bad jobs
    }

    void everyFieldIsRead() {
        // Adjacent one-line literals: moc loses track of a raw string spanning lines.
        const std::string text =
            R"([{"jobId":"j-1","name":"n\u00e9\ud83d\ude00","type":"PYTHON","cluster":"c",)"
            R"("parameters":["--class","A","s3://b/app.py","--x"],"applicationPath":"s3://b/app.py",)"
            R"("arguments":["--x"],"sparkConfigs":{"spark.a":"1"},"hudiConfigs":{"hoodie.b":"2"},)"
            R"("maxConcurrentRuns":3,"activeRuns":2,"createdAt":"2026-11-30T05:01:46.123Z",)"
            R"("updatedAt":"2026-11-30T06:00:00Z","hudiConfigsStatus":{"hoodie.b":"RESERVED"},)"
            R"("misplacedHudiConfigs":["hoodie.c=3"],"extra":{"deep":[[{}]]}}])";
        const SparkJobList list = decodeList(text);
        const auto jobs = list.jobs();
        QCOMPARE(jobs.size(), std::size_t(1));
        QCOMPARE(jobs, json::parse(text).get<std::vector<SparkJob>>());
        QCOMPARE(list.summary(0), summaryOf(jobs.front()));
        const SparkJob& j = jobs.front();
        QCOMPARE(j.name, std::string("n\u00e9\U0001F600"));
        QCOMPARE(j.type, JobType::Python);
        QCOMPARE(j.maxConcurrentRuns, 3);
        QCOMPARE(j.activeRuns, 2);
        QCOMPARE(j.hudiConfigsStatus.at("hoodie.b"), HudiConfigStatus::Reserved);
        QCOMPARE(j.misplacedHudiConfigs, std::vector<std::string>{"hoodie.c=3"});
        QCOMPARE(j.sparkConfigs.at("spark.a"), std::string("1"));
        QCOMPARE(j.updatedAt, *parseTimestamp("2026-11-30T06:00:00Z"));
    }

    void statusEnvelopeSplitsOffTheJobs() {
        Generator g(3);
        for (int round = 0; round < 100; ++round) {
            const std::string jobs = g.list(g.below(5), false);
            const std::string text = envelope("API_OPERATION_STATUS_SUCCESS", jobs);
            const auto status = decodeStatus(text);
            json expected = json::parse(text);
            QVERIFY(status.jobs.has_value());
            QVERIFY(!status.jobsError);
            QCOMPARE(
                status.jobs->jobs(),
                expected["apiResponse"]["showJobsApiResponse"]["sparkJobs"].get<std::vector<SparkJob>>());
            expected["apiResponse"]["showJobsApiResponse"].erase("sparkJobs");
            QCOMPARE(status.envelope, expected);
        }
    }

    void envelopeWithoutAJobsArrayIsADom() {
        // Whatever is not an array of jobs at apiResponse.showJobsApiResponse.sparkJobs stays in the DOM,
        // so the caller's checks (and messages) for it are unchanged.
        for (
            const std::string text :
            {R"({"apiStatus":"API_OPERATION_STATUS_FAILED","errorMessage":"no such project"})",
             R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":null}},"apiStatus":"API_OPERATION_STATUS_SUCCESS"})",
             R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":{"a":1}}},"apiStatus":"API_OPERATION_STATUS_SUCCESS"})",
             R"({"apiResponse":{"showJobsApiResponse":[1]},"apiStatus":"API_OPERATION_STATUS_SUCCESS"})",
             R"({"apiResponse":7,"apiStatus":"API_OPERATION_STATUS_SUCCESS"})", R"({"requestId":"r"})",
             R"([1,2])", R"("just a string")", R"(null)",
             // A later duplicate replaces the decoded array, as in a DOM.
             R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":[]}},"apiResponse":{}})",
             R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":[{}],"sparkJobs":"x"}}})"}) {
            const auto status = decodeStatus(text);
            QVERIFY2(!status.jobs && !status.jobsError, text.c_str());
            QVERIFY2(status.envelope == json::parse(text), text.c_str());
        }
        // ...and a later array replaces an earlier value.
        const auto status =
            decodeStatus(R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":"x","sparkJobs":[]}}})");
        QVERIFY(status.jobs && status.jobs->empty());
        QCOMPARE(status.envelope, json::parse(R"({"apiResponse":{"showJobsApiResponse":{}}})"));
    }

    void aRefusedJobIsReportedNotThrown() {
        // A FAILED status may carry anything: the envelope is read, the jobs' problem is only noted.
        const std::string text = envelope("API_OPERATION_STATUS_FAILED", R"([{"name":"x"}])");
        const auto status = decodeStatus(text);
        QVERIFY(!status.jobs);
        QVERIFY(status.jobsError);
        QCOMPARE(*status.jobsError, viaDom(R"([{"name":"x"}])").error);
        QCOMPARE(QString::fromStdString(*status.jobsError),
                 QStringLiteral("[json.exception.out_of_range.403] sparkJob.jobId is required but missing"));
        QCOMPARE(status.envelope["apiStatus"], json("API_OPERATION_STATUS_FAILED"));
    }

    void malformedTextIsAParseError() {
        for (const std::string text :
             {"",
              " ",
              "[",
              "{",
              R"({"a")",
              R"({"a":})",
              R"({"a":1,})",
              "[1,]",
              "[01]",
              "[1.]",
              "[.5]",
              "[-]",
              "[1e]",
              "[tru]",
              "[nul]",
              R"(["\x"])",
              R"(["\u12"])",
              R"(["\ud800"])",
              R"(["\udc00"])",
              R"(["\ud800\u0041"])",
              "[\"\x01\"]",
              "[\"\xff\"]",
              "[\"\xc0\xaf\"]",
              "[\"\xed\xa0\x80\"]",
              "[\"\xf4\x90\x80\x80\"]",
              "[\"\xe6\x97\"]",
              "[1] [2]",
              "{} x",
              "[\"unterminated",
              R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":[{"name":"a",}]}}})",
              R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":[{"name":"x"},{"jobId":]}}})"}) {
            QVERIFY2(isParseError(text), text.c_str());
            QVERIFY2(!json::accept(text), text.c_str());
        }
    }

    void everyTruncationIsAParseError() {
        Generator g(4);
        const std::string text = envelope("API_OPERATION_STATUS_SUCCESS", g.list(3, false));
        QVERIFY(!isParseError(text));
        for (std::size_t n = 0; n < text.size(); ++n)
            QVERIFY2(isParseError(text.substr(0, n)), text.substr(0, n).c_str());
    }

    void corruptedTextAgreesWithJsonAccept() {
        // Any byte changed anywhere: the decoder refuses exactly the texts json::parse refuses.
        Generator g(5);
        static const char replacements[] = {'{', '}', '[', ']', ',', ':',    '"',    '\\',   'u',    '0',
                                            '-', '.', 'e', ' ', 'n', '\x80', '\xc3', '\x00', '\x7f', 't'};
        int refused = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string text = envelope("API_OPERATION_STATUS_SUCCESS", g.list(2, true));
            for (int n = 1 + g.below(2); n > 0; --n)
                text[static_cast<std::size_t>(g.below(static_cast<int>(text.size())))] =
                    replacements[g.below(static_cast<int>(sizeof replacements))];
            const bool accepted = json::accept(text);
            QVERIFY2(isParseError(text) == !accepted, text.c_str());
            refused += !accepted;
        }
        QVERIFY(refused > 1000);
    }

    void deepNestingNeitherCrashesNorHangs() {
        const std::string deep(1'000'000, '[');
        QVERIFY(isParseError(R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":[{"x":)" + deep));
        const std::string balanced = std::string(200'000, '[') + std::string(200'000, ']');
        const auto jobs =
            decodeList(R"([{"jobId":"i","name":"n","type":"JAR","cluster":"c","parameters":[],)"
                       R"("createdAt":"2026-11-30T05:01:46Z","updatedAt":"2026-11-30T05:01:46Z","unknown":)" +
                       balanced + "}]");
        QCOMPARE(jobs.size(), std::size_t(1));
    }

    void decodingWhileTheTextArrivesGivesTheWholeTextsResult() {
        // Valid answers, refused jobs, corrupted bytes, every kind of malformed text: fed in pieces from
        // single bytes up, the result or the message is exactly that of the whole text.
        Generator g(6);
        std::vector<std::string> texts;
        for (int round = 0; round < 150; ++round)
            texts.push_back(envelope("API_OPERATION_STATUS_SUCCESS", g.list(g.below(24), round % 3 == 0)));
        for (int round = 0; round < 150; ++round) {
            std::string text = envelope("API_OPERATION_STATUS_SUCCESS", g.list(2, true));
            text[static_cast<std::size_t>(g.below(static_cast<int>(text.size())))] =
                "{}[],:\"\\u0-. \x80"[g.below(14)];
            texts.push_back(std::move(text));
        }
        for (const std::string text : {"", " ", "[1,]", "[tru]", "[\"\xe6\x97\"]", R"(["\ud800"])", "{} x",
                                       R"({"a":1,})", "[\"unterminated", "null", "[01]", "[1e]"})
            texts.emplace_back(text);
        int parseErrors = 0, jobsErrors = 0, jobs = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const std::string& text = texts[i];
            const StatusOutcome whole = decodedStatus(std::string_view(text));
            for (const int maxPiece : {1, 7, 4096}) {
                const StatusOutcome streamed =
                    decodedWhileArriving(text, text.size(), static_cast<unsigned>(i), maxPiece);
                QVERIFY2(streamed == whole,
                         (text + "\n  whole: " + whole.parseError + "\n  streamed: " + streamed.parseError)
                             .c_str());
            }
            parseErrors += !whole.parseError.empty();
            jobsErrors += whole.jobsError.has_value();
            jobs += whole.jobs ? static_cast<int>(whole.jobs->size()) : 0;
        }
        QVERIFY(parseErrors > 50);
        QVERIFY(jobsErrors > 20);
        QVERIFY(jobs > 1000);
    }

    void aTransferThatStopsEarlyIsTheTextReceived() {
        // The stream is finished before its announced size (a lost connection): what arrived is the text.
        Generator g(7);
        const std::string text = envelope("API_OPERATION_STATUS_SUCCESS", g.list(20, false));
        for (std::size_t n = 0; n <= text.size(); n += 1 + n / 8) {
            const std::string received = text.substr(0, n);
            const StatusOutcome outcome =
                decodedWhileArriving(received, text.size(), static_cast<unsigned>(n), 64);
            QCOMPARE(outcome, decodedStatus(std::string_view(received)));
            QCOMPARE(outcome.parseError.empty(), n == text.size());
        }
    }

    void wrongTopLevelTypes() {
        for (const std::string text : {"{}", "null", "3", R"("s")", "true"})
            QCOMPARE(viaDecoder(text), viaDom(text));
        QCOMPARE(viaDecoder("[]"), Outcome{});
        QCOMPARE(viaDecoder("[1]").error,
                 std::string("[json.exception.type_error.302] sparkJob must be a JSON object, got number"));
    }
};

QTEST_GUILESS_MAIN(TestSparkJobListDecoder)
#include "tst_sparkjoblistdecoder.moc"
