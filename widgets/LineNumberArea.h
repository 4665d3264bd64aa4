#pragma once

#include <QWidget>

namespace jobdeck {

class ParameterEditor;

// The parameter editor's gutter: line numbers, a strip showing the zone each line is in (job configuration,
// application path, application arguments) and a dot for lines with an error or warning.
class LineNumberArea final : public QWidget {
    Q_OBJECT
public:
    explicit LineNumberArea(ParameterEditor* editor);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    ParameterEditor* m_editor;
};

} // namespace jobdeck
