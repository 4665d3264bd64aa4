#pragma once

#include <QString>

#include <memory>

class QMainWindow;
class QSettings;

namespace jobdeck {

// What the main window remembers between starts (QSettings, group "window"): its geometry and state
// (toolbars, docks and where they are), the sizes of every splitter, and for every table and tree the
// header's state (column widths, order, hidden columns, sort). Widgets are found by objectName, so
// views added later are remembered without changes here; a widget without a name is not.
class WindowSettings final {
public:
    // `settingsFile` empty: the user's settings (organisation and application "jobdeck").
    explicit WindowSettings(const QString& settingsFile);
    ~WindowSettings();

    void save(const QMainWindow& window);
    // false when nothing was saved yet (first start).
    bool restore(QMainWindow& window);

    // The job selected when the window closed, per connection profile (empty: none).
    QString selectedJob(const QString& profile) const;
    void setSelectedJob(const QString& profile, const QString& job);
    // The tab of the side panel a job is shown on (DescribeViewer::jobTab).
    int describeTab() const;
    void setDescribeTab(int index);

    // Desktop notifications when a run started from the console ends (on unless turned off).
    bool runNotifications() const;
    void setRunNotifications(bool on);

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace jobdeck
