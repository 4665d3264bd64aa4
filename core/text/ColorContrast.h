#pragma once

#include <cstdint>

namespace jobdeck {

// WCAG 2.x contrast of two sRGB colours (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): the
// console's themes are checked with it so every text colour stays readable on its background.
struct Rgb final {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;
};

// 0 (black) to 1 (white).
double relativeLuminance(Rgb colour);
// (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: 1 (same) to 21 (black on white).
double contrastRatio(Rgb a, Rgb b);
// Level AA for normal text.
inline constexpr double kWcagAaNormalText = 4.5;

} // namespace jobdeck
