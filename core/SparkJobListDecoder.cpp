#include "core/SparkJobListDecoder.h"

#include "core/Concat.h"
#include "core/Utf8.h"
#include "core/WireFields.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <utility>

namespace jobdeck {

using nlohmann::json;

namespace {

// A strict JSON scanner over the whole text (RFC 8259, as json::parse accepts it: UTF-8 checked,
// surrogate pairs paired, no trailing commas). Syntax errors throw json::parse_error. Over a
// StreamedText it reads while the text arrives: where it reaches the end of what has arrived it waits
// for more, and only the end of the whole text counts as its end, so the results and the messages are
// those of the whole text.
class Scanner final {
public:
    explicit Scanner(std::string_view text)
        : m_begin(text.data())
        , m_p(text.data())
        , m_end(text.data() + text.size())
        , m_total(text.size()) {}
    explicit Scanner(StreamedText& text)
        : m_begin(text.data())
        , m_p(text.data())
        , m_end(text.data())
        , m_total(text.capacity())
        , m_stream(&text) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw json::parse_error::create(101, static_cast<std::size_t>(m_p - m_begin) + 1,
                                        "syntax error: " + what, nullptr);
    }

    // The next significant character; '\0' at the end of the text.
    char peek() {
        for (;;) {
            while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
                ++m_p;
            if (m_p != m_end)
                return *m_p;
            if (!more())
                return '\0';
        }
    }
    bool atEnd() { return peek() == '\0' && m_p == m_end; }
    bool take(char c) {
        if (peek() != c)
            return false;
        ++m_p;
        return true;
    }
    void expect(char c, const char* what) {
        if (!take(c))
            fail(m_p == m_end ? std::string("unexpected end of the text, expected ") + what
                              : std::string("expected ") + what);
    }
    // The items of the array or object whose opening character was just taken, up to `close`: `each`
    // reads one item (a member with its key); the separators and the end are checked here.
    template <class Each> void itemsUntil(char close, Each&& each) {
        if (take(close))
            return;
        do {
            each();
        } while (take(','));
        expect(close, close == ']' ? "',' or ']'" : "',' or '}'");
    }
    const char* position() const { return m_p; }
    std::size_t offset() const { return static_cast<std::size_t>(m_p - m_begin); }
    // How much of the text (as announced, for a stream) lies ahead.
    std::size_t remaining() const { return m_total - static_cast<std::size_t>(m_p - m_begin); }

    // The string at the current position: a view of the text when it has no escapes, else of `scratch`.
    std::string_view string(std::string& scratch);
    // The key of an object member and its ':'.
    std::string_view key(std::string& scratch) {
        if (peek() != '"')
            fail(m_p == m_end ? "unexpected end of the text, expected a key" : "expected a key");
        const std::string_view k = string(scratch);
        expect(':', "':'");
        return k;
    }
    // A number at the current position; true when it is an integer (no fraction, no exponent).
    bool number();
    void literal();
    // Any value. Iterative, so deep nesting cannot exhaust the stack.
    void skipValue();

private:
    // False at the end of the text; over a stream, first waits for more of it.
    bool more() {
        if (m_stream == nullptr)
            return false;
        const auto have = static_cast<std::size_t>(m_end - m_begin);
        const std::size_t now = m_stream->waitBeyond(have);
        m_end = m_begin + now;
        return now > have;
    }
    // True while there is a character at m_p.
    bool has() { return m_p != m_end || more(); }
    // At least n characters from m_p, unless the text ends sooner.
    void need(std::ptrdiff_t n) {
        while (m_end - m_p < n && more()) {
        }
    }
    void utf8();
    unsigned byteAt(std::ptrdiff_t i) const {
        return i < m_end - m_p ? static_cast<unsigned char>(m_p[i]) : 0u;
    }

    const char* m_begin;
    const char* m_p;
    const char* m_end; // of what has arrived
    std::size_t m_total;
    StreamedText* m_stream = nullptr;
};

std::string_view Scanner::string(std::string& scratch) {
    const char* open = m_p++;
    bool escaped = false;
    for (;;) {
        if (!has())
            fail("unterminated string");
        const auto c = static_cast<unsigned char>(*m_p);
        if (c == '"')
            break;
        if (c == '\\') {
            need(2);
            if (m_end - m_p < 2)
                fail("unterminated string");
            escaped = true;
            m_p += 2;
        } else if (c < 0x20) {
            fail("control character in a string");
        } else if (c < 0x80) {
            ++m_p;
        } else {
            utf8();
        }
    }
    ++m_p;
    if (!escaped)
        return {open + 1, static_cast<std::size_t>(m_p - open - 2)};
    // Escapes are rare in these answers: json::parse decodes them, and refuses a bad one (parse_error).
    scratch = json::parse(open, m_p).get_ref<const std::string&>();
    return scratch;
}

void Scanner::utf8() {
    need(4);
    const std::size_t n = utf8SequenceLength(std::string_view(m_p, static_cast<std::size_t>(m_end - m_p)), 0);
    if (n == 0)
        fail("invalid UTF-8 in a string");
    m_p += static_cast<std::ptrdiff_t>(n);
}

bool Scanner::number() {
    const auto digits = [this] {
        const char* from = m_p;
        while (has() && *m_p >= '0' && *m_p <= '9')
            ++m_p;
        if (m_p == from)
            fail(m_p == m_end ? "unexpected end of the text" : "unexpected character");
    };
    if (has() && *m_p == '-')
        ++m_p;
    if (has() && *m_p == '0')
        ++m_p; // no leading zeros: "01" fails on the '1' as a missing separator
    else
        digits();
    bool integer = true;
    if (has() && *m_p == '.') {
        integer = false;
        ++m_p;
        digits();
    }
    if (has() && (*m_p == 'e' || *m_p == 'E')) {
        integer = false;
        ++m_p;
        if (has() && (*m_p == '+' || *m_p == '-'))
            ++m_p;
        digits();
    }
    return integer;
}

void Scanner::literal() {
    need(5);
    for (const std::string_view word :
         {std::string_view("true"), std::string_view("false"), std::string_view("null")})
        if (m_end - m_p >= static_cast<std::ptrdiff_t>(word.size()) &&
            std::string_view(m_p, word.size()) == word) {
            m_p += word.size();
            return;
        }
    fail("unexpected character");
}

void Scanner::skipValue() {
    std::string scratch;
    std::vector<char> open; // the closing character of each container being skipped
    for (;;) {
        switch (peek()) {
        case '{':
            ++m_p;
            if (take('}'))
                break;
            open.push_back('}');
            key(scratch);
            continue;
        case '[':
            ++m_p;
            if (take(']'))
                break;
            open.push_back(']');
            continue;
        case '"':
            string(scratch);
            break;
        case 't':
        case 'f':
        case 'n':
            literal();
            break;
        default:
            number();
            break;
        }
        for (;;) {
            if (open.empty())
                return;
            if (take(',')) {
                if (open.back() == '}')
                    key(scratch);
                break;
            }
            expect(open.back(), open.back() == '}' ? "',' or '}'" : "',' or ']'");
            open.pop_back();
        }
    }
}

// json::type_name() of the value starting with c.
const char* typeName(char c) {
    switch (c) {
    case '{':
        return "object";
    case '[':
        return "array";
    case '"':
        return "string";
    case 't':
    case 'f':
        return "boolean";
    case 'n':
        return "null";
    default:
        return "number";
    }
}

constexpr std::string_view kObject = "sparkJob";

// SparkJob's fields in the order from_json checks them, so the first problem reported is the same.
enum Field {
    JobId,
    Name,
    Type,
    Cluster,
    Parameters,
    ApplicationPath,
    Arguments,
    SparkConfigs,
    HudiConfigs,
    MaxConcurrentRuns,
    ActiveRuns,
    CreatedAt,
    UpdatedAt,
    HudiConfigsStatus,
    MisplacedHudiConfigs,
    FieldCount
};

constexpr std::array<std::string_view, FieldCount> kFieldNames = {
    "jobId",           "name",      "type",         "cluster",           "parameters",
    "applicationPath", "arguments", "sparkConfigs", "hudiConfigs",       "maxConcurrentRuns",
    "activeRuns",      "createdAt", "updatedAt",    "hudiConfigsStatus", "misplacedHudiConfigs"};

bool isRequired(int f) {
    return f == JobId || f == Name || f == Type || f == Cluster || f == Parameters || f == CreatedAt ||
           f == UpdatedAt;
}

constexpr unsigned kRequiredFields = (1u << JobId) | (1u << Name) | (1u << Type) | (1u << Cluster) |
                                     (1u << Parameters) | (1u << CreatedAt) | (1u << UpdatedAt);

// The field a key names, or -1. Objects written by the same code list their keys in the same order:
// the search starts after the last match (`hint`).
int fieldOf(std::string_view key, int& hint) {
    for (int i = 0; i < FieldCount; ++i) {
        const int f = (hint + i) % FieldCount;
        if (key == kFieldNames[static_cast<std::size_t>(f)]) {
            hint = f + 1;
            return f;
        }
    }
    return -1;
}

// Reads job objects field by field into SparkJob. A value of the wrong kind is noted, not thrown at
// once: a later duplicate of the key replaces it (as in a DOM), and the object is read to its end
// first, so the scanner stays in step with the text.
class JobReader final {
public:
    explicit JobReader(Scanner& scanner)
        : m_s(scanner) {}

    // Reads the object at the scanner; throws what from_json throws for it.
    void read(SparkJob& job);

private:
    struct FieldState {
        bool present = false;
        bool nested = false; // a problem inside a list or map, reported as "in sparkJob.<field>: ..."
        std::string problem;
    };

    void readField(int f, SparkJob& job);
    void readString(FieldState& st, std::string& out);
    void readStrings(FieldState& st, std::vector<std::string>& out);
    void readStringMap(FieldState& st, std::map<std::string, std::string>& out);
    void readInt(FieldState& st, int& out);
    void readTime(FieldState& st, TimePoint& out);
    void resetToDefault(int f, SparkJob& job);
    void check(SparkJob& job);

    Scanner& m_s;
    std::array<FieldState, FieldCount> m_fields;
    std::string m_keyScratch, m_scratch, m_type;
    std::map<std::string, std::string> m_status;
    int m_hint = 0;
};

void JobReader::read(SparkJob& job) {
    for (FieldState& st : m_fields) {
        st.present = false;
        st.nested = false;
        st.problem.clear();
    }
    m_s.expect('{', "'{'");
    m_s.itemsUntil('}', [&] {
        const int f = fieldOf(m_s.key(m_keyScratch), m_hint);
        if (f < 0)
            m_s.skipValue(); // unknown fields are ignored
        else
            readField(f, job);
    });
    check(job);
}

void JobReader::readField(int f, SparkJob& job) {
    FieldState& st = m_fields[static_cast<std::size_t>(f)];
    st.present = false;
    st.nested = false;
    st.problem.clear();
    if (m_s.peek() == 'n') { // null reads as absent
        m_s.literal();
        resetToDefault(f, job);
        return;
    }
    switch (f) {
    case JobId:
        return readString(st, job.jobId);
    case Name:
        return readString(st, job.name);
    case Type:
        return readString(st, m_type);
    case Cluster:
        return readString(st, job.cluster);
    case Parameters:
        return readStrings(st, job.parameters);
    case ApplicationPath:
        return readString(st, job.applicationPath);
    case Arguments:
        return readStrings(st, job.arguments);
    case SparkConfigs:
        return readStringMap(st, job.sparkConfigs);
    case HudiConfigs:
        return readStringMap(st, job.hudiConfigs);
    case MaxConcurrentRuns:
        return readInt(st, job.maxConcurrentRuns);
    case ActiveRuns:
        return readInt(st, job.activeRuns);
    case CreatedAt:
        return readTime(st, job.createdAt);
    case UpdatedAt:
        return readTime(st, job.updatedAt);
    case HudiConfigsStatus:
        return readStringMap(st, m_status);
    case MisplacedHudiConfigs:
        return readStrings(st, job.misplacedHudiConfigs);
    }
}

void JobReader::resetToDefault(int f, SparkJob& job) {
    const SparkJob defaults;
    switch (f) {
    case ApplicationPath:
        job.applicationPath = defaults.applicationPath;
        break;
    case Arguments:
        job.arguments.clear();
        break;
    case SparkConfigs:
        job.sparkConfigs.clear();
        break;
    case HudiConfigs:
        job.hudiConfigs.clear();
        break;
    case MaxConcurrentRuns:
        job.maxConcurrentRuns = defaults.maxConcurrentRuns;
        break;
    case ActiveRuns:
        job.activeRuns = defaults.activeRuns;
        break;
    case HudiConfigsStatus:
        m_status.clear();
        break;
    case MisplacedHudiConfigs:
        job.misplacedHudiConfigs.clear();
        break;
    default:
        break; // required: absent is an error, whatever was read before
    }
}

void JobReader::readString(FieldState& st, std::string& out) {
    const char c = m_s.peek();
    st.present = true;
    if (c == '"') {
        out.assign(m_s.string(m_scratch));
        return;
    }
    st.problem = std::string("must be a string, got ") + typeName(c);
    m_s.skipValue();
}

void JobReader::readStrings(FieldState& st, std::vector<std::string>& out) {
    const char c = m_s.peek();
    st.present = true;
    if (c != '[') {
        st.nested = true;
        st.problem = std::string("type must be array, but is ") + typeName(c);
        m_s.skipValue();
        return;
    }
    m_s.take('[');
    out.clear();
    m_s.itemsUntil(']', [&] {
        const char item = m_s.peek();
        if (item == '"') {
            out.emplace_back(m_s.string(m_scratch));
            return;
        }
        if (st.problem.empty()) {
            st.nested = true;
            st.problem = std::string("type must be string, but is ") + typeName(item);
        }
        m_s.skipValue();
    });
}

void JobReader::readStringMap(FieldState& st, std::map<std::string, std::string>& out) {
    const char c = m_s.peek();
    st.present = true;
    if (c != '{') {
        st.nested = true;
        st.problem = std::string("type must be object, but is ") + typeName(c);
        m_s.skipValue();
        return;
    }
    m_s.take('{');
    out.clear();
    // Keys whose (last) value is not a string; from_json reports the first in key order.
    std::map<std::string, const char*> wrong;
    m_s.itemsUntil('}', [&] {
        std::string key(m_s.key(m_keyScratch));
        const char v = m_s.peek();
        if (v == '"') {
            if (!wrong.empty())
                wrong.erase(key);
            out.insert_or_assign(std::move(key), std::string(m_s.string(m_scratch)));
            return;
        }
        out.erase(key);
        wrong.insert_or_assign(std::move(key), typeName(v));
        m_s.skipValue();
    });
    if (!wrong.empty()) {
        st.nested = true;
        st.problem = std::string("type must be string, but is ") + wrong.begin()->second;
    }
}

void JobReader::readInt(FieldState& st, int& out) {
    const char c = m_s.peek();
    st.present = true;
    if (c != '-' && (c < '0' || c > '9')) {
        st.problem = std::string("must be an integer, got ") + typeName(c);
        m_s.skipValue();
        return;
    }
    const char* from = m_s.position();
    if (!m_s.number()) {
        st.problem = "must be an integer, got number";
        return;
    }
    const char* to = m_s.position();
    int value = 0;
    if (const auto [end, ec] = std::from_chars(from, to, value); ec == std::errc() && end == to) {
        out = value;
        return;
    }
    // Out of int's range; past 64 bits json::parse reads a floating-point number.
    const json v = json::parse(from, to);
    st.problem = v.is_number_integer() ? "is out of range: " + v.dump() : "must be an integer, got number";
}

void JobReader::readTime(FieldState& st, TimePoint& out) {
    const char c = m_s.peek();
    st.present = true;
    if (c != '"') {
        st.problem = std::string("must be an ISO-8601 timestamp string, got ") + typeName(c);
        m_s.skipValue();
        return;
    }
    const std::string_view text = m_s.string(m_scratch);
    if (const auto t = parseTimestamp(text)) {
        out = *t;
        return;
    }
    st.problem = "is not an ISO-8601 UTC timestamp like 2026-11-30T05:01:46.123Z: " + json(text).dump();
}

void JobReader::check(SparkJob& job) {
    for (int f = 0; f < FieldCount; ++f) {
        const FieldState& st = m_fields[static_cast<std::size_t>(f)];
        const std::string_view field = kFieldNames[static_cast<std::size_t>(f)];
        if (!st.problem.empty()) {
            if (st.nested)
                wire::rethrowNested(kObject, field, json::type_error::create(302, st.problem, nullptr));
            wire::throwInvalid(kObject, field, st.problem);
        }
        if (!st.present) {
            if (isRequired(f))
                wire::throwMissing(kObject, field);
            continue;
        }
        if (f == Type) {
            const auto t = jobTypeFromName(m_type);
            if (!t)
                wire::throwInvalid(kObject, field,
                                   "has an unknown value '" + m_type + "' (expected JAR or PYTHON)");
            job.type = *t;
        } else if (f == HudiConfigsStatus) {
            for (const auto& [key, name] : m_status) {
                const auto s = hudiConfigStatusFromName(name);
                if (!s)
                    wire::throwInvalid(
                        kObject, field,
                        concat({"has an unknown value '", name, "' for '", key,
                                "' (expected APPLIED, NOT_ALLOWED, RESERVED or OVERRIDDEN_BY_PLATFORM)"}));
                job.hudiConfigsStatus.emplace(key, *s);
            }
        }
    }
}
// Reads a job object's summary and checks the rest of it without keeping it. Whatever from_json could
// refuse, and whatever it reads differently from the usual shape (a null), is only noted, and the
// value skipped: the job is then read in full, which gives from_json's exact outcome.
class SummaryReader final {
public:
    SummaryReader(Scanner& scanner, std::deque<std::string>& strings)
        : m_s(scanner)
        , m_strings(strings) {}

    // False when the object needs the full read.
    bool read(SparkJobSummary& out);

private:
    void readField(int f, SparkJobSummary& out);
    // True when the value is of the kind that starts with `c`; otherwise notes it and skips it.
    bool kind(char c);
    std::string_view keptString();
    void checkString();
    void checkStrings();
    void checkStringMap(bool statusNames);
    void readInt(int& out);
    void readTime(TimePoint& out);

    Scanner& m_s;
    std::deque<std::string>& m_strings;
    std::string m_keyScratch, m_scratch;
    int m_hint = 0;
    bool m_usual = true;
};

bool SummaryReader::read(SparkJobSummary& out) {
    m_usual = true;
    unsigned present = 0;
    m_s.expect('{', "'{'");
    m_s.itemsUntil('}', [&] {
        const int f = fieldOf(m_s.key(m_keyScratch), m_hint);
        if (f < 0) {
            m_s.skipValue(); // unknown fields are ignored
            return;
        }
        present |= 1u << static_cast<unsigned>(f);
        readField(f, out);
    });
    return m_usual && (present & kRequiredFields) == kRequiredFields;
}

void SummaryReader::readField(int f, SparkJobSummary& out) {
    switch (f) {
    case Name:
        if (kind('"'))
            out.name = keptString();
        return;
    case Cluster:
        if (kind('"'))
            out.cluster = keptString();
        return;
    case Type:
        if (kind('"')) {
            const auto t = jobTypeFromName(m_s.string(m_scratch));
            m_usual = m_usual && t.has_value();
            out.type = t.value_or(JobType::Jar);
        }
        return;
    case JobId:
    case ApplicationPath:
        return checkString();
    case Parameters:
    case Arguments:
    case MisplacedHudiConfigs:
        return checkStrings();
    case SparkConfigs:
    case HudiConfigs:
        return checkStringMap(false);
    case HudiConfigsStatus:
        return checkStringMap(true);
    case MaxConcurrentRuns:
        return readInt(out.maxConcurrentRuns);
    case ActiveRuns:
        return readInt(out.activeRuns);
    case CreatedAt: {
        TimePoint ignored;
        return readTime(ignored);
    }
    case UpdatedAt:
        return readTime(out.updatedAt);
    }
}

bool SummaryReader::kind(char c) {
    if (m_s.peek() == c)
        return true;
    m_usual = false;
    m_s.skipValue();
    return false;
}

std::string_view SummaryReader::keptString() {
    const std::string_view s = m_s.string(m_scratch);
    if (s.data() != m_scratch.data())
        return s; // bytes of the text
    return m_strings.emplace_back(s);
}

void SummaryReader::checkString() {
    if (kind('"'))
        m_s.string(m_scratch);
}

void SummaryReader::checkStrings() {
    if (!kind('['))
        return;
    m_s.take('[');
    m_s.itemsUntil(']', [this] { checkString(); });
}

void SummaryReader::checkStringMap(bool statusNames) {
    if (!kind('{'))
        return;
    m_s.take('{');
    m_s.itemsUntil('}', [&] {
        m_s.key(m_keyScratch);
        if (!kind('"'))
            return;
        const std::string_view value = m_s.string(m_scratch);
        if (statusNames && !hudiConfigStatusFromName(value))
            m_usual = false;
    });
}

void SummaryReader::readInt(int& out) {
    const char c = m_s.peek();
    if (c != '-' && (c < '0' || c > '9')) {
        m_usual = false;
        m_s.skipValue();
        return;
    }
    const char* from = m_s.position();
    const bool integer = m_s.number();
    const char* to = m_s.position();
    if (const auto [end, ec] = std::from_chars(from, to, out); !integer || ec != std::errc() || end != to)
        m_usual = false;
}

void SummaryReader::readTime(TimePoint& out) {
    if (!kind('"'))
        return;
    if (const auto t = parseTimestamp(m_s.string(m_scratch)))
        out = *t;
    else
        m_usual = false;
}

} // namespace

// Builds a SparkJobList from an answer's bytes (SparkJobList's friend).
class SparkJobListBuilder final {
public:
    using Item = SparkJobList::Item;

    SparkJobListBuilder(std::string_view text, std::shared_ptr<const void> owner) {
        m_list.m_owner = std::move(owner);
        m_list.m_text = text;
        m_list.m_strings = std::make_shared<std::deque<std::string>>();
    }
    std::exception_ptr readJobs(Scanner& s);
    SparkJobList take() { return std::move(m_list); }

private:
    // The job from `start` to the scanner read in full: its summary, or what from_json throws for it.
    Item readInFull(const Scanner& s, std::size_t start);

    SparkJobList m_list;
};

namespace {

constexpr std::size_t kSampleJobs = 16;

// Room for the whole array, from the size of its first jobs in the text: growing a vector of 100,000
// jobs step by step moves them all several times. A job is never shorter than its required fields'
// names (about 128 bytes), which bounds the room when the first jobs are unusually short.
template <class Items> void reserveFor(Items& items, std::size_t sampleBytes, std::size_t bytesLeft) {
    const std::size_t perJob = std::max<std::size_t>(sampleBytes / items.size(), 128);
    items.reserve(items.size() + bytesLeft / perJob + bytesLeft / perJob / 32);
}

} // namespace

SparkJobListBuilder::Item SparkJobListBuilder::readInFull(const Scanner& s, std::size_t start) {
    const std::size_t length = s.offset() - start;
    const SparkJob job = SparkJobListDecoder::decodeJob(m_list.m_text.substr(start, length));
    SparkJobSummary summary = summaryOf(job);
    summary.name = m_list.m_strings->emplace_back(job.name);
    summary.cluster = m_list.m_strings->emplace_back(job.cluster);
    return {summary, start, length};
}

// Reads the array at the scanner. A job from_json would refuse gives what it throws, after the rest of
// the array has been checked for syntax (a syntax error anywhere throws at once).
std::exception_ptr SparkJobListBuilder::readJobs(Scanner& s) {
    s.expect('[', "'['");
    std::exception_ptr error;
    auto& items = m_list.m_items;
    SummaryReader reader(s, *m_list.m_strings);
    const char* first = s.position();
    s.itemsUntil(']', [&] {
        const char c = s.peek();
        if (!error && items.size() == kSampleJobs)
            reserveFor(items, static_cast<std::size_t>(s.position() - first), s.remaining());
        if (error) {
            s.skipValue();
        } else if (c != '{') {
            error = std::make_exception_ptr(json::type_error::create(
                302, std::string(kObject) + " must be a JSON object, got " + typeName(c), nullptr));
            s.skipValue();
        } else {
            const std::size_t start = s.offset();
            Item item{{}, start, 0};
            if (reader.read(item.summary)) {
                item.length = s.offset() - start;
                items.push_back(item);
            } else {
                try {
                    items.push_back(readInFull(s, start));
                } catch (const json::exception&) {
                    error = std::current_exception();
                }
            }
        }
    });
    if (error)
        m_list = {};
    return error;
}

namespace {

// The value at the scanner as a DOM: checked by the scanner, then parsed by nlohmann (these are the
// small parts of an answer).
json parseValue(Scanner& s) {
    s.peek();
    const char* from = s.position();
    s.skipValue();
    return json::parse(from, s.position());
}

constexpr std::array<std::string_view, 3> kJobsPath = {"apiResponse", "showJobsApiResponse", "sparkJobs"};

struct Source {
    std::string_view text; // as far as it will reach
    std::shared_ptr<const void> owner;
};

// The members of the object at the scanner into `into`, following kJobsPath from `level`.
void readEnvelope(Scanner& s, const Source& source, json& into, std::size_t level,
                  SparkJobListDecoder::Status& out) {
    s.expect('{', "'{'");
    into = json::object();
    std::string scratch;
    s.itemsUntil('}', [&] {
        std::string key(s.key(scratch));
        if (key == kJobsPath[level]) {
            // A later duplicate of the key replaces what an earlier one gave, as in a DOM.
            out.jobs.reset();
            out.jobsError.reset();
            const char c = s.peek();
            if (level + 1 < kJobsPath.size() && c == '{') {
                readEnvelope(s, source, into[key], level + 1, out);
            } else if (level + 1 == kJobsPath.size() && c == '[') {
                into.erase(key);
                SparkJobListBuilder builder(source.text, source.owner);
                if (const auto error = builder.readJobs(s)) {
                    try {
                        std::rethrow_exception(error);
                    } catch (const json::exception& e) {
                        out.jobsError = e.what();
                    }
                } else {
                    out.jobs = builder.take();
                }
            } else {
                into[key] = parseValue(s);
            }
        } else {
            into[key] = parseValue(s);
        }
    });
}

void expectEnd(Scanner& s) {
    if (!s.atEnd())
        s.fail("text after the end of the JSON value");
}

SparkJobListDecoder::Status decodeStatusFrom(Scanner& s, const Source& source) {
    SparkJobListDecoder::Status status;
    if (s.peek() == '{')
        readEnvelope(s, source, status.envelope, 0, status);
    else
        status.envelope = parseValue(s);
    expectEnd(s);
    return status;
}

} // namespace

SparkJobListDecoder::Status SparkJobListDecoder::decodeStatus(std::string_view text,
                                                              std::shared_ptr<const void> owner) {
    Scanner s(text);
    return decodeStatusFrom(s, {text, std::move(owner)});
}

SparkJobListDecoder::Status SparkJobListDecoder::decodeStatus(const std::shared_ptr<StreamedText>& text) {
    Scanner s(*text);
    return decodeStatusFrom(s, {std::string_view(text->data(), text->capacity()), text});
}

SparkJobList SparkJobListDecoder::decodeList(std::string_view text, std::shared_ptr<const void> owner) {
    Scanner s(text);
    if (const char c = s.peek(); c != '[') {
        parseValue(s);
        expectEnd(s);
        throw json::type_error::create(302, std::string("type must be array, but is ") + typeName(c),
                                       nullptr);
    }
    SparkJobListBuilder builder(text, std::move(owner));
    const auto error = builder.readJobs(s);
    expectEnd(s);
    if (error)
        std::rethrow_exception(error);
    return builder.take();
}

SparkJob SparkJobListDecoder::decodeJob(std::string_view text) {
    Scanner s(text);
    SparkJob job;
    JobReader(s).read(job);
    expectEnd(s);
    return job;
}

} // namespace jobdeck
