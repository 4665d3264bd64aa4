#pragma once

#include <QString>

#include <optional>

namespace jobdeck {

// Where API secrets live: the system keychain (QtKeychain) when the build has it and a keychain
// service answers, otherwise a JSON file readable only by the user (0600, in a 0700 directory).
// The fallback is announced through notice(), so the user knows where the secret went.
// Calls are synchronous; keychain calls are bounded by a timeout. Secrets are never logged.
class SecretStore final {
public:
    enum class Backend { Keychain, File };

    // `directory` holds the fallback file. `forced` pins the backend (tests use File: headless
    // machines have no keychain); without it the keychain is tried first.
    explicit SecretStore(QString directory, std::optional<Backend> forced = std::nullopt,
                         QString service = QStringLiteral("jobdeck"));

    bool write(const QString& account, const QString& secret, QString* error = nullptr);
    // nullopt when there is no secret for the account (error says why when it was a failure).
    std::optional<QString> read(const QString& account, QString* error = nullptr);
    bool remove(const QString& account, QString* error = nullptr);

    // The backend in use now (Keychain until it failed once, unless forced).
    Backend backend() const { return m_backend; }
    QString filePath() const;
    // Empty with the keychain; with the file, a sentence that says where secrets are kept and why.
    QString notice() const;

    static bool keychainCompiledIn();

private:
    bool writeFile(const QString& account, const std::optional<QString>& secret, QString* error);
    std::optional<QString> readFile(const QString& account, QString* error) const;
    void fallBackToFile(const QString& why);

    QString m_directory;
    QString m_service;
    Backend m_backend;
    bool m_forced;
    QString m_fallbackReason;
};

} // namespace jobdeck
