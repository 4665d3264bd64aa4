#pragma once

#include <QLabel>

namespace jobdeck {

// A word-wrapped, selectable label that a layout cannot cut: its minimum height is the height its text
// needs at its current width, so a dock or splitter beside it takes only the room left over. For the
// texts a reader must see whole (a configuration's reason, the misplaced-config banner).
class FullTextLabel final : public QLabel {
    Q_OBJECT
public:
    explicit FullTextLabel(QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    // Whether the whole text fits the label as laid out now (none of it cut off at the bottom).
    bool showsAllText() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    int neededHeight(int width) const;
    int m_neededHeight = 0; // at the width last laid out, so a change re-lays out once
};

} // namespace jobdeck
