// The replica id a data directory keeps (ReplicaIdentity): jobdeckd restarted on it is the same replica.
#include "service/runs/ReplicaIdentity.h"
#include "tests/runner/SuiteRegistry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace jobdeck;

namespace {

QString fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).trimmed() : QString();
}

} // namespace

class TestReplicaIdentity final : public QObject {
    Q_OBJECT

private slots:
    void aDataDirectoryKeepsItsId() {
        QTemporaryDir dir;
        const auto first = ReplicaIdentity::load(dir.path().toStdString());
        QVERIFY(!first.id().empty());
        QCOMPARE(fileText(dir.path() + "/replica-id"), QString::fromStdString(first.id()));
        QCOMPARE(ReplicaIdentity::load(dir.path().toStdString()).id(), first.id());
        QVERIFY(!first.host().empty());

        QTemporaryDir other;
        QVERIFY(ReplicaIdentity::load(other.path().toStdString()).id() != first.id());
    }

    void aDamagedIdIsReplaced() {
        QTemporaryDir dir;
        QFile file(dir.path() + "/replica-id");
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not an id; rm -rf /\n");
        file.close();
        const auto identity = ReplicaIdentity::load(dir.path().toStdString());
        QVERIFY(identity.id().find(' ') == std::string::npos);
        QCOMPARE(fileText(dir.path() + "/replica-id"), QString::fromStdString(identity.id()));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestReplicaIdentity)
#include "tst_replicaidentity.moc"
