#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

// Decodes the items of one list in an answer while nlohmann_json parses the answer (its parser
// callback), each with T's from_json, and drops them from the parsed answer: a list of 100,000 jobs is
// never held both as JSON values and as T. The list is named by the keys that lead to it from the
// answer's top object; everything else in the answer is parsed as usual.
template <class T> class ListItemReader final {
public:
    explicit ListItemReader(std::vector<std::string> path)
        : m_path(std::move(path))
        , m_keys(m_path.size()) {}

    // The callback to parse the answer with; it holds the reader.
    static nlohmann::json::parser_callback_t callback(std::shared_ptr<ListItemReader> reader) {
        return [reader = std::move(reader)](int depth, nlohmann::json::parse_event_t event,
                                            nlohmann::json& parsed) {
            return reader->read(static_cast<std::size_t>(depth), event, parsed);
        };
    }

    // The items of the last answer parsed; throws what the first item that could not be read threw.
    std::vector<T> take() {
        if (!m_error.empty())
            throw std::runtime_error(m_error);
        return std::move(m_items);
    }

private:
    using Event = nlohmann::json::parse_event_t;

    // Whether `parsed` stays in the answer.
    bool read(std::size_t depth, Event event, nlohmann::json& parsed) {
        const std::size_t listDepth = m_path.size();
        if (event == Event::object_start && depth == 0) { // a new answer (statuses are polled)
            m_items.clear();
            m_error.clear();
            m_inList = false;
        } else if (event == Event::key && depth >= 1 && depth <= listDepth) {
            m_keys[depth - 1] = parsed.template get<std::string>();
        } else if (event == Event::array_start && depth == listDepth) {
            m_inList = m_keys == m_path;
        } else if (event == Event::array_end && depth == listDepth) {
            m_inList = false;
        } else if (m_inList && depth == listDepth + 1 &&
                   (event == Event::value || event == Event::array_end || event == Event::object_end)) {
            take(parsed);
            return false;
        }
        return true;
    }

    void take(const nlohmann::json& item) {
        if (!m_error.empty())
            return;
        try {
            m_items.push_back(item.template get<T>());
        } catch (const std::exception& e) {
            m_error = e.what();
        }
    }

    std::vector<std::string> m_path;
    std::vector<std::string> m_keys; // the key the parser is under at each depth from 1
    bool m_inList = false;
    std::vector<T> m_items;
    std::string m_error;
};

} // namespace jobdeck
