#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <array>
#include <vector>

namespace jobdeck {

// Colours the parameter editor from what the core classifier and validator found; it has no rules of its
// own. The editor hands it, per line, the spans to colour and the spans to underline, and asks it to redo
// only the lines whose spans changed.
class ParameterHighlighter final : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Style {
        OptionName,
        OptionValue,
        ConfKey,
        ConfValue,
        HudiKey,
        HudiValue,
        PairSeparator,
        ApplicationPath,
        ApplicationArgument,
        MisplacedHudiConf, // --hudi-conf flag or pair after the path: passed to the application, not applied
        NotApplied,        // a --hudi-conf key the project will not apply (NOT_ALLOWED / RESERVED)
        RefusedOption,
        UnknownOption,
        Error,   // wave underline, red
        Warning, // wave underline, orange
        Count
    };
    struct Span final {
        int start = 0; // UTF-16 offset within the line
        int length = 0;
        Style style = Style::OptionName;
        bool operator==(const Span&) const = default;
    };
    struct LineSpans final {
        std::vector<Span> spans;      // base colours, in order
        std::vector<Span> underlines; // Error/Warning, drawn over the base colours
        bool stale = false;           // edited since its spans were set: re-highlight it whatever they are
        bool operator==(const LineSpans&) const = default;
    };

    explicit ParameterHighlighter(QTextDocument* document);

    // Replaces the spans of every line and re-highlights the lines that changed; returns how many.
    int setLines(const std::vector<LineSpans>& lines);
    // An edit replaced `removed` lines from `first` on with `inserted` new ones: the lines after them keep
    // their spans (and formats), the new ones are re-highlighted by the next setLines().
    void spliceLines(int first, int removed, int inserted);
    const QTextCharFormat& format(Style style) const { return m_formats[static_cast<std::size_t>(style)]; }
    static QColor argumentZoneColor();

protected:
    void highlightBlock(const QString& text) override;

private:
    std::array<QTextCharFormat, static_cast<std::size_t>(Style::Count)> m_formats;
    std::vector<LineSpans> m_lines;
};

} // namespace jobdeck
