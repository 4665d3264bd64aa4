#pragma once

#include <QAbstractItemModel>

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace jobdeck {

// A JSON document as a tree: objects and arrays are branches, scalars are leaves.
// Columns: Key (member name or [index]), Value (scalar text, or "{n}" / "[n]" for containers), Type.
class JsonTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Key, Value, Type, ColumnCount };
    // The node as compact JSON text.
    static constexpr int RawDataRole = Qt::UserRole;

    explicit JsonTreeModel(QObject* parent = nullptr);
    ~JsonTreeModel() override;

    void setJson(const nlohmann::json& document);
    // The index of the node reached by member names / array indices ("describeJobApiResponse",
    // "sparkJob", "hudiConfigs"); invalid when there is no such node.
    QModelIndex indexForPath(const QStringList& path, int column = Key) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node {
        QString key;
        QString value;
        QString type;
        std::string compact;
        Node* parent = nullptr;
        int row = 0;
        std::vector<std::unique_ptr<Node>> children;
    };
    static std::unique_ptr<Node> build(const QString& key, const nlohmann::json& value, Node* parent,
                                       int row);
    const Node* nodeOf(const QModelIndex& index) const;

    std::unique_ptr<Node> m_root; // invisible; its children are the document's top-level members
};

} // namespace jobdeck
