#pragma once

#include <QWidget>

class QPushButton;
class QTableView;

namespace jobdeck {

class ArgumentOverridesModel;

// Edits a run's argument overrides: the Job's arguments with an editable override each, and "Add
// argument" for one the Job does not have. Remove clears the selected override or added argument.
class OverridesEditor final : public QWidget {
    Q_OBJECT
public:
    // Without a model (a Designer form makes it so): setModel() before use.
    explicit OverridesEditor(QWidget* parent = nullptr);
    explicit OverridesEditor(ArgumentOverridesModel* model, QWidget* parent = nullptr);

    void setModel(ArgumentOverridesModel* model);

    ArgumentOverridesModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    // Appends a new argument row and starts editing its name.
    void addArgument();
    void removeSelected();

private:
    void updateButtons();

    ArgumentOverridesModel* m_model = nullptr;
    QTableView* m_view;
    QPushButton* m_add;
    QPushButton* m_remove;
};

} // namespace jobdeck
