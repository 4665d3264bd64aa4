#pragma once

#include "core/parameters/ParameterDiff.h"

#include <QPlainTextEdit>

#include <string>
#include <vector>

namespace jobdeck {

// The edited parameters against the stored Job's, one line each: "  " same, "+ " added, "- " removed,
// "~ old → new" changed, with a background per kind.
class ParameterDiffView final : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit ParameterDiffView(QWidget* parent = nullptr);

    void setParameters(const std::vector<std::string>& before, const std::vector<std::string>& after);
    const std::vector<ParameterDiffLine>& lines() const { return m_lines; }
    int count(ParameterDiffLine::Kind kind) const;
    bool hasChanges() const;
    QString summary() const;

private:
    std::vector<ParameterDiffLine> m_lines;
};

} // namespace jobdeck
