#include "models/ThemeColors.h"

#include <QCoreApplication>
#include <QGuiApplication>

#include <array>
#include <utility>

namespace jobdeck {

namespace {

struct Variants {
    ThemeColor role;
    QRgb light;
    QRgb dark;
};

// Light variants are checked against white, dark ones against a #2a2a2a base (tst_themecolors).
constexpr std::array kTable{
    Variants{ThemeColor::OptionName, 0xff6a1b9a, 0xffce93d8},
    Variants{ThemeColor::OptionValue, 0xff2e7d32, 0xff81c784},
    Variants{ThemeColor::ConfKey, 0xff00579b, 0xff81d4fa},
    Variants{ThemeColor::HudiKey, 0xff00695c, 0xff80cbc4},
    Variants{ThemeColor::PairSeparator, 0xff757575, 0xffa0a0a0},
    Variants{ThemeColor::ApplicationPath, 0xffbf360c, 0xffffab91},
    Variants{ThemeColor::ArgumentText, 0xff455a64, 0xffb0bec5},
    Variants{ThemeColor::ArgumentBackground, 0xffeef2f7, 0xff2f363d},
    Variants{ThemeColor::MisplacedText, 0xff8d4e00, 0xffffcc80},
    Variants{ThemeColor::MisplacedBackground, 0xfffff3cd, 0xff3e3220},
    Variants{ThemeColor::NotAppliedText, 0xff757575, 0xffa8a8a8},
    Variants{ThemeColor::ErrorText, 0xffc62828, 0xffef9a9a},
    Variants{ThemeColor::ErrorUnderline, 0xffd32f2f, 0xffef5350},
    Variants{ThemeColor::WarningUnderline, 0xffef8a00, 0xffffb74d},
    Variants{ThemeColor::ConfigurationZone, 0xff90caf9, 0xff1e6bb8},
    Variants{ThemeColor::ArgumentZone, 0xffb0bec5, 0xff546e7a},
    Variants{ThemeColor::JsonKey, 0xff881f8a, 0xffe1a6f0},
    Variants{ThemeColor::JsonString, 0xff1a7f37, 0xff7ee787},
    Variants{ThemeColor::JsonNumber, 0xff0b5cad, 0xff79c0ff},
    Variants{ThemeColor::JsonLiteral, 0xffb35a00, 0xffffa657},
    Variants{ThemeColor::JsonPunctuation, 0xff6a737d, 0xffa0a8b0},
    Variants{ThemeColor::StatusQueued, 0xff9e9e9e, 0xffbdbdbd},
    Variants{ThemeColor::StatusRunning, 0xff1e88e5, 0xff64b5f6},
    Variants{ThemeColor::StatusCompleted, 0xff2e7d32, 0xff81c784},
    Variants{ThemeColor::StatusFailed, 0xffc62828, 0xffef9a9a},
    Variants{ThemeColor::StatusCanceled, 0xfff9a825, 0xffffd54f},
    Variants{ThemeColor::SeverityError, 0xffd32f2f, 0xffef9a9a},
    Variants{ThemeColor::SeverityWarning, 0xffb35a00, 0xffffb74d},
    Variants{ThemeColor::SeverityInfo, 0xff1976d2, 0xff64b5f6},
    Variants{ThemeColor::AppliedText, 0xff1b7f3b, 0xff81c784},
    Variants{ThemeColor::NoteText, 0xff3e2700, 0xffffe0b2},
    Variants{ThemeColor::NoteBackground, 0xfffff4e5, 0xff3e3220},
    Variants{ThemeColor::NoteBorder, 0xfff0b866, 0xff8d6e2f},
    Variants{ThemeColor::DiffAdded, 0xffe6f4ea, 0xff1f3a26},
    Variants{ThemeColor::DiffRemoved, 0xfffde7e9, 0xff4a1f24},
    Variants{ThemeColor::DiffChanged, 0xfffff4d6, 0xff3d3419},
    Variants{ThemeColor::GaugeFill, 0xff1e88e5, 0xff64b5f6},
    Variants{ThemeColor::GaugeFull, 0xffef6c00, 0xffffb74d},
    Variants{ThemeColor::LimitLine, 0xffc62828, 0xffef5350},
    Variants{ThemeColor::OverLimitBand, 0x28ef6c00, 0x40ffb74d},
};

} // namespace

bool ThemeColors::isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

QColor ThemeColors::color(ThemeColor role, bool dark) {
    for (const Variants& v : kTable)
        if (v.role == role)
            return QColor::fromRgba(dark ? v.dark : v.light);
    return dark ? QColor(Qt::white) : QColor(Qt::black);
}

QColor ThemeColors::color(ThemeColor role, const QPalette& palette) {
    return color(role, isDark(palette));
}

QColor ThemeColors::color(ThemeColor role) {
    // Models also live in processes without a QGuiApplication (jobdeckd-side tools, GUI-less tests),
    // where there is no application palette to ask: they get the light variant.
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return color(role, false);
    return color(role, QGuiApplication::palette());
}

QString ThemeColors::css(ThemeColor role, const QPalette& palette) {
    const QColor c = color(role, palette);
    return c.alpha() == 255 ? c.name(QColor::HexRgb)
                            : QStringLiteral("rgba(%1, %2, %3, %4)")
                                  .arg(c.red())
                                  .arg(c.green())
                                  .arg(c.blue())
                                  .arg(c.alpha());
}

QList<ThemeColors::TextPair> ThemeColors::textPairs() {
    using T = ThemeColor;
    return {
        {"option name", T::OptionName, std::nullopt},
        {"option value", T::OptionValue, std::nullopt},
        {"--conf key", T::ConfKey, std::nullopt},
        {"--hudi-conf key", T::HudiKey, std::nullopt},
        {"pair separator", T::PairSeparator, std::nullopt},
        {"application path", T::ApplicationPath, std::nullopt},
        {"application argument", T::ArgumentText, T::ArgumentBackground},
        {"misplaced --hudi-conf", T::MisplacedText, T::MisplacedBackground},
        {"not applied", T::NotAppliedText, std::nullopt},
        {"error text", T::ErrorText, std::nullopt},
        {"JSON key", T::JsonKey, std::nullopt},
        {"JSON string", T::JsonString, std::nullopt},
        {"JSON number", T::JsonNumber, std::nullopt},
        {"JSON literal", T::JsonLiteral, std::nullopt},
        {"JSON punctuation", T::JsonPunctuation, std::nullopt},
        {"severity error", T::SeverityError, std::nullopt},
        {"severity warning", T::SeverityWarning, std::nullopt},
        {"severity info", T::SeverityInfo, std::nullopt},
        {"applied", T::AppliedText, std::nullopt},
        {"note", T::NoteText, T::NoteBackground},
    };
}

QList<ThemeColor> ThemeColors::textBackgrounds() {
    return {ThemeColor::DiffAdded, ThemeColor::DiffRemoved, ThemeColor::DiffChanged};
}

} // namespace jobdeck
