// Connection admission (service/http/ConnectionTable) in-process: which connection a new one may
// displace, when it is refused, and that deciding never walks the other open connections (issue 27
// item 17: after a flood of 2,000 connections each admission scanned them all). The work is shown
// by counting the connections an admission looks at, not by timing it.
#include "core/wire/HttpMessages.h"
#include "service/http/ConnectionTable.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

#include <memory>
#include <string>
#include <vector>

using namespace jobdeck;

namespace {

struct TestConnection final : ConnectionEntry {
    using ConnectionEntry::ConnectionEntry;
};

using Connections = std::vector<std::unique_ptr<TestConnection>>;

bool evictAny(ConnectionEntry&) {
    return true;
}

// Admits a new connection from `address`; it stays Fresh.
ConnectionTable::Admission admitNew(ConnectionTable& table, Connections& connections,
                                    const std::string& address = "127.0.0.1") {
    connections.push_back(std::make_unique<TestConnection>(address));
    return table.admit(*connections.back(), evictAny);
}

} // namespace

class TestConnectionTable : public QObject {
    Q_OBJECT

private slots:
    // With every connection idle and the table full, each new connection closes the oldest idle one;
    // the connections looked at stay the same whether 100 or 20,000 are open.
    void admissionLooksAtAConstantNumberOfConnections_data() {
        QTest::addColumn<int>("open");
        QTest::newRow("100") << 100;
        QTest::newRow("2,000") << 2000;
        QTest::newRow("20,000") << 20000;
    }

    void admissionLooksAtAConstantNumberOfConnections() {
        QFETCH(int, open);
        ConnectionTable table({std::size_t(open), std::size_t(open / 16), 0});
        Connections connections;
        for (int i = 0; i < open; ++i) {
            const auto admission = admitNew(table, connections, "127.0.0." + std::to_string(2 + i % 200));
            QVERIFY(!admission.refusal);
            if (!admission.evicted)
                table.setPhase(*connections.back(), ConnectionPhase::Idle);
        }
        std::size_t mostVisits = 0;
        for (int i = 0; i < 100; ++i) {
            const auto admission = admitNew(table, connections);
            QVERIFY(!admission.refusal);
            QVERIFY(admission.evicted);
            mostVisits = std::max(mostVisits, table.lastAdmissionVisits());
        }
        QVERIFY2(mostVisits <= 1,
                 qPrintable(QStringLiteral("an admission among %1 open connections looked at %2 "
                                           "of them; at most 1 expected")
                                .arg(open)
                                .arg(mostVisits)));
    }

    // The oldest connection that has sent nothing goes first, then the oldest idle one; busy ones
    // never; with all of them busy the reserve is used, then the new one is refused.
    void theOldestWaitingConnectionMakesRoom() {
        ConnectionTable table({4, 1, 0});
        Connections c;
        for (int i = 0; i < 3; ++i)
            QVERIFY(!admitNew(table, c).evicted);
        table.setPhase(*c[0], ConnectionPhase::Idle);
        table.setPhase(*c[1], ConnectionPhase::Busy);
        // c[0] idle, c[1] busy, c[2] fresh: three open, two waiting; the waiting limit is 3.
        auto admission = admitNew(table, c); // c[3]: 3 waiting now
        QVERIFY(!admission.evicted && !admission.refusal);
        admission = admitNew(table, c); // c[4]: the waiting limit is reached: the oldest fresh, c[2], goes
        QCOMPARE(admission.evicted, static_cast<ConnectionEntry*>(c[2].get()));
        QCOMPARE(ConnectionTable::phase(*c[2]), ConnectionPhase::Gone);
        table.remove(*c[2]);
        table.setPhase(*c[3], ConnectionPhase::Idle);
        table.setPhase(*c[4], ConnectionPhase::Idle);
        admission = admitNew(table, c); // c[5]: no fresh one left: the oldest idle, c[0], goes
        QCOMPARE(admission.evicted, static_cast<ConnectionEntry*>(c[0].get()));
        table.remove(*c[0]);
        for (const auto i : {3, 4, 5})
            table.setPhase(*c[i], ConnectionPhase::Busy);
        // Four busy: the next is refused, and the table does not keep it among the open ones.
        admission = admitNew(table, c);
        QVERIFY(!admission.evicted);
        QCOMPARE(admission.refusal, std::optional<std::string>(tooManyConnectionsMessage()));
        QCOMPARE(ConnectionTable::phase(*c.back()), ConnectionPhase::Gone);
        QCOMPARE(table.count(ConnectionPhase::Busy), std::size_t(4));
    }

    // A connection that is ending by itself declines to be closed: the next oldest is taken.
    void aConnectionEndingByItselfIsPassedOver() {
        ConnectionTable table({3, 1, 0});
        Connections c;
        for (int i = 0; i < 2; ++i)
            admitNew(table, c);
        c.push_back(std::make_unique<TestConnection>("127.0.0.1"));
        const auto admission = table.admit(*c.back(), [&](ConnectionEntry& e) { return &e != c[0].get(); });
        QCOMPARE(admission.evicted, static_cast<ConnectionEntry*>(c[1].get()));
        QCOMPARE(table.lastAdmissionVisits(), std::size_t(2));
    }

    // One address beyond its limit is refused; another address is not; a connection that ends gives
    // its address's place back.
    void oneAddressHasItsLimit() {
        ConnectionTable table({100, 10, 2});
        Connections c;
        QVERIFY(!admitNew(table, c, "127.0.0.20").refusal);
        QVERIFY(!admitNew(table, c, "127.0.0.20").refusal);
        const auto refused = admitNew(table, c, "127.0.0.20");
        QCOMPARE(refused.refusal, std::optional<std::string>(tooManyConnectionsFromAddressMessage()));
        QVERIFY(!admitNew(table, c, "127.0.0.21").refusal);
        QCOMPARE(table.connectionsFrom("127.0.0.20"), std::size_t(2));
        table.remove(*c[2]); // the refused one was never counted
        QCOMPARE(table.connectionsFrom("127.0.0.20"), std::size_t(2));
        table.remove(*c[0]);
        QCOMPARE(table.connectionsFrom("127.0.0.20"), std::size_t(1));
        QVERIFY(!admitNew(table, c, "127.0.0.20").refusal);
        table.remove(*c[1]);
        table.remove(*c[3]);
        table.remove(*c[4]);
        QCOMPARE(table.size(), std::size_t(0));
        QCOMPARE(table.connectionsFrom("127.0.0.20"), std::size_t(0));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestConnectionTable)
#include "tst_connectiontable.moc"
