#pragma once

#include "core/parameters/ParameterDiff.h"

#include <QPlainTextEdit>

#include <string>
#include <vector>

namespace jobdeck {

// The edited parameters against the stored Job's, one line each: "  " same, "+ " added, "- " removed,
// "~ old → new" changed, with a background per kind. Secret values are shown as ****, as DESCRIBE JOB
// and the statement preview show them; a secret typed anew is a change "(a new secret value)".
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
    QStringList linesText(const std::vector<std::string>& shownBefore,
                          const std::vector<std::string>& shownAfter) const;
    void markChangedLines();

    std::vector<ParameterDiffLine> m_lines;
};

} // namespace jobdeck
