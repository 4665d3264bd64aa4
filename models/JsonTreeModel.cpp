#include "models/JsonTreeModel.h"

#include <QStringList>

namespace jobdeck {

using nlohmann::json;

JsonTreeModel::JsonTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>()) {}

JsonTreeModel::~JsonTreeModel() = default;

std::unique_ptr<JsonTreeModel::Node> JsonTreeModel::build(const QString& key, const json& value, Node* parent,
                                                          int row) {
    auto node = std::make_unique<Node>();
    node->key = key;
    node->parent = parent;
    node->row = row;
    node->compact = value.dump(-1, ' ', false, json::error_handler_t::replace);
    switch (value.type()) {
    case json::value_t::object: {
        node->type = QStringLiteral("object");
        node->value = QStringLiteral("{%1}").arg(value.size());
        int i = 0;
        for (const auto& [k, v] : value.items())
            node->children.push_back(build(QString::fromStdString(k), v, node.get(), i++));
        break;
    }
    case json::value_t::array: {
        node->type = QStringLiteral("array");
        node->value = QStringLiteral("[%1]").arg(value.size());
        int i = 0;
        for (const auto& v : value) {
            node->children.push_back(build(QStringLiteral("[%1]").arg(i), v, node.get(), i));
            ++i;
        }
        break;
    }
    case json::value_t::string:
        node->type = QStringLiteral("string");
        node->value = QString::fromStdString(value.get<std::string>());
        break;
    case json::value_t::boolean:
        node->type = QStringLiteral("boolean");
        node->value = QString::fromStdString(node->compact);
        break;
    case json::value_t::null:
        node->type = QStringLiteral("null");
        node->value = QStringLiteral("null");
        break;
    default:
        node->type = QStringLiteral("number");
        node->value = QString::fromStdString(node->compact);
        break;
    }
    return node;
}

void JsonTreeModel::setJson(const json& document) {
    beginResetModel();
    m_root = std::make_unique<Node>();
    if (document.is_object() || document.is_array()) {
        auto built = build({}, document, nullptr, 0);
        m_root->children = std::move(built->children);
        for (auto& child : m_root->children)
            child->parent = m_root.get();
    } else if (!document.is_discarded() && !document.is_null()) {
        m_root->children.push_back(build(QStringLiteral("value"), document, m_root.get(), 0));
    }
    endResetModel();
}

const JsonTreeModel::Node* JsonTreeModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<const Node*>(index.internalPointer()) : m_root.get();
}

QModelIndex JsonTreeModel::indexForPath(const QStringList& path, int column) const {
    const Node* node = m_root.get();
    for (const QString& step : path) {
        const Node* next = nullptr;
        for (const auto& child : node->children)
            if (child->key == step || child->key == QStringLiteral("[%1]").arg(step))
                next = child.get();
        if (!next)
            return {};
        node = next;
    }
    if (node == m_root.get())
        return {};
    return createIndex(node->row, column, const_cast<Node*>(node));
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    const Node* p = nodeOf(parent);
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex JsonTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    const Node* p = nodeOf(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, const_cast<Node*>(p));
}

int JsonTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return static_cast<int>(nodeOf(parent)->children.size());
}

int JsonTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant JsonTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node* node = nodeOf(index);
    if (role == RawDataRole)
        return QString::fromStdString(node->compact);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Key:
        return node->key;
    case Value:
        return node->value;
    case Type:
        return node->type;
    }
    return {};
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Key:
        return tr("Key");
    case Value:
        return tr("Value");
    case Type:
        return tr("Type");
    }
    return {};
}

} // namespace jobdeck
