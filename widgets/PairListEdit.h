#pragma once

#include "core/parameters/ParameterLineAnalysis.h"

#include <QList>
#include <QPlainTextEdit>
#include <QRectF>

#include <vector>

namespace jobdeck {

class SecretValueMask;

// Configuration pairs, one "key=value" a line (a cluster's WITH defaults): the secret values maskPairs
// would mask are hidden on every line but the one being edited (SecretValueMask).
class PairListEdit final : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit PairListEdit(QWidget* parent = nullptr);

    // Where secret values are painted over, in viewport coordinates.
    QList<QRectF> hiddenSecretRects() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void findSecrets();

    std::vector<std::vector<LineRange>> m_secrets; // per line
    SecretValueMask* m_mask;
};

} // namespace jobdeck
