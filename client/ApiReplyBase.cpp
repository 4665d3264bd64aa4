#include "client/ApiReplyBase.h"

namespace jobdeck {

void ApiReplyBase::reject(ApiError error) {
    if (m_finished)
        return;
    m_error = std::move(error);
    finish();
}

void ApiReplyBase::finish() {
    m_finished = true;
    emit finished();
    deleteLater();
}

} // namespace jobdeck
