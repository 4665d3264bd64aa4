#pragma once

#include <QColor>
#include <QList>
#include <QPalette>

#include <optional>

namespace jobdeck {

// Every colour the console draws that the palette does not give: editor and JSON tokens, run and
// connection statuses, diagnostics, diff lines, the timeline and gauge. Each has a light and a dark
// variant; which one applies follows the palette (dark when its window is darker than its text), so
// the console looks right under any desktop theme.
enum class ThemeColor {
    // Parameter editor tokens (text on the palette's Base unless a background is named).
    OptionName,
    OptionValue,
    ConfKey,
    HudiKey,
    PairSeparator,
    ApplicationPath,
    ArgumentText,
    ArgumentBackground,
    MisplacedText,
    MisplacedBackground,
    NotAppliedText,
    ErrorText,
    ErrorUnderline,
    WarningUnderline,
    ConfigurationZone,
    ArgumentZone,
    // JSON viewer tokens.
    JsonKey,
    JsonString,
    JsonNumber,
    JsonLiteral,
    JsonPunctuation,
    // Statuses: runs (dots, timeline bars) and the connection (its dot).
    StatusQueued,
    StatusRunning,
    StatusCompleted,
    StatusFailed,
    StatusCanceled,
    // Diagnostics severities and configuration statuses, drawn as text.
    SeverityError,
    SeverityWarning,
    SeverityInfo,
    AppliedText,
    // Notes (the DESCRIBE viewer's explanation box).
    NoteText,
    NoteBackground,
    NoteBorder,
    // Diff line backgrounds (the palette's Text on them).
    DiffAdded,
    DiffRemoved,
    DiffChanged,
    // Gauge and timeline.
    GaugeFill,
    GaugeFull,
    LimitLine,
    OverLimitBand,
};

class ThemeColors final {
public:
    // Dark when the palette's window is darker than its text.
    static bool isDark(const QPalette& palette);
    static QColor color(ThemeColor role, bool dark);
    // The variant for `palette` (the application's by default).
    static QColor color(ThemeColor role, const QPalette& palette);
    static QColor color(ThemeColor role);
    // A colour as a style sheet value (#rrggbb, or rgba() with transparency).
    static QString css(ThemeColor role, const QPalette& palette);

    // A text colour and what it is drawn on (the palette's Base when no background is named), for
    // checking that each stays readable.
    struct TextPair {
        const char* name;
        ThemeColor text;
        std::optional<ThemeColor> background;
    };
    static QList<TextPair> textPairs();
    // Diff backgrounds carry the palette's Text.
    static QList<ThemeColor> textBackgrounds();
};

} // namespace jobdeck
