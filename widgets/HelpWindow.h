#pragma once

#include <QMainWindow>
#include <QUrl>

class QTextBrowser;

namespace jobdeck {

// The user documentation shipped with the console (README.md and docs/*.md), read in a window of its
// own: Markdown rendered, links between the pages followed inside it, web links opened in the
// browser, Back/Forward with the usual keys.
class HelpWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit HelpWindow(QWidget* parent = nullptr);

    // Shows `page` (a local .md file), adding it to the history.
    void showPage(const QUrl& page);
    QTextBrowser* browser() const { return m_browser; }

private:
    void createActions();

    QTextBrowser* m_browser;
};

} // namespace jobdeck
