// RowNameIndex: the open-addressing name -> row table of the Jobs list, checked against
// std::unordered_map through long random sequences of inserts, erases and finds, many of them colliding.
#include "models/RowNameIndex.h"

#include <QTest>

#include <algorithm>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

using namespace jobdeck;

namespace {

struct R {
    struct {
        std::string_view name;
    } summary;
};

// Rows whose names stay put while they are indexed.
struct Rows final {
    std::deque<std::string> names;
    std::deque<R> rows;
    R* make(const std::string& name) {
        names.push_back(name);
        rows.push_back(R{{names.back()}});
        return &rows.back();
    }
};

} // namespace

class TestRowNameIndex final : public QObject {
    Q_OBJECT

    // The index and the reference agree on every name ever used, and on the count.
    static void compare(const RowNameIndex<R>& index, const std::unordered_map<std::string, R*>& reference,
                        const std::vector<std::string>& universe, const char* where) {
        QVERIFY2(index.size() == reference.size(), qPrintable(QStringLiteral("%1: size %2, expected %3")
                                                                  .arg(where)
                                                                  .arg(index.size())
                                                                  .arg(reference.size())));
        for (const std::string& name : universe) {
            const auto at = reference.find(name);
            R* const expected = at == reference.end() ? nullptr : at->second;
            QVERIFY2(index.find(name) == expected,
                     qPrintable(QStringLiteral("%1: find(%2)").arg(where, QString::fromStdString(name))));
        }
    }

private slots:
    void emptyIndex() {
        RowNameIndex<R> index; // never cleared nor reserved: no table yet
        QCOMPARE(index.size(), std::size_t(0));
        QCOMPARE(index.find("x"), nullptr);
        QCOMPARE(index.find(""), nullptr);
        index.erase("x"); // nothing to erase
        QCOMPARE(index.size(), std::size_t(0));

        RowNameIndex<R> cleared;
        cleared.clear();
        QCOMPARE(cleared.find("x"), nullptr);
        cleared.erase("x");
        QCOMPARE(cleared.size(), std::size_t(0));

        RowNameIndex<R> reserved;
        reserved.reserve(1000);
        QCOMPARE(reserved.find("x"), nullptr);
        QCOMPARE(reserved.size(), std::size_t(0));
    }

    void insertFindEraseOne() {
        Rows rows;
        RowNameIndex<R> index; // the first insert makes the table
        R* a = rows.make("a");
        index.insert(a);
        QCOMPARE(index.size(), std::size_t(1));
        QCOMPARE(index.find("a"), a);
        QCOMPARE(index.find("b"), nullptr);
        index.erase("b");
        QCOMPARE(index.size(), std::size_t(1));
        index.erase("a");
        QCOMPARE(index.size(), std::size_t(0));
        QCOMPARE(index.find("a"), nullptr);
        index.erase("a");
        QCOMPARE(index.size(), std::size_t(0));
    }

    void insertReplacesTheRowOfTheSameName() {
        Rows rows;
        RowNameIndex<R> index;
        index.clear();
        R* first = rows.make("job");
        R* second = rows.make("job"); // another row, another string, the same name
        index.insert(first);
        index.insert(second);
        QCOMPARE(index.size(), std::size_t(1));
        QCOMPARE(index.find("job"), second);
        index.insert(second); // again: still one
        QCOMPARE(index.size(), std::size_t(1));
        index.erase("job");
        QCOMPARE(index.find("job"), nullptr);
        QCOMPARE(index.size(), std::size_t(0));
    }

    void growsThroughManyInserts() {
        Rows rows;
        RowNameIndex<R> index;
        index.clear();
        index.reserve(2); // tiny: every later insert crowds the table until it grows
        std::vector<std::string> universe;
        std::unordered_map<std::string, R*> reference;
        for (int i = 0; i < 5000; ++i) {
            const std::string name = "job_" + std::to_string(i);
            universe.push_back(name);
            R* r = rows.make(name);
            index.insert(r);
            reference[name] = r;
            if (i % 997 == 0) {
                compare(index, reference, universe, "growing");
                if (QTest::currentTestFailed())
                    return;
            }
        }
        compare(index, reference, universe, "grown");
    }

    // Random inserts (new, and replacing), erases (present and absent) and finds over a small set of
    // names, so most slots are taken by long runs of colliding entries that backward-shift erase must
    // keep findable; the table sometimes starts small and grows, sometimes is cleared.
    void randomOperationsMatchUnorderedMap() {
        for (unsigned seed = 1; seed <= 6; ++seed) {
            std::mt19937 random(seed);
            Rows rows;
            RowNameIndex<R> index;
            if (seed % 2 == 0)
                index.clear();
            if (seed % 3 == 0)
                index.reserve(4);
            std::unordered_map<std::string, R*> reference;
            const std::size_t names = seed <= 3 ? 40 : 600;
            std::vector<std::string> universe;
            for (std::size_t i = 0; i < names; ++i)
                universe.push_back(i % 7 == 0 ? std::string(i % 5, 'x') + "_" + std::to_string(i)
                                              : "n" + std::to_string(i * 7919 % 1000));
            universe.push_back(""); // an empty name is a name too
            std::sort(universe.begin(), universe.end());
            universe.erase(std::unique(universe.begin(), universe.end()), universe.end());
            for (int step = 0; step < 20000; ++step) {
                const std::string& name = universe[random() % universe.size()];
                switch (random() % 10) {
                case 0:
                case 1:
                case 2:
                case 3: { // insert (replacing when present)
                    R* r = rows.make(name);
                    index.insert(r);
                    reference[name] = r;
                    break;
                }
                case 4:
                case 5:
                case 6: // erase, present or not
                    index.erase(name);
                    reference.erase(name);
                    break;
                case 7:
                    if (random() % 500 == 0) {
                        index.clear();
                        reference.clear();
                    } else if (random() % 200 == 0) {
                        index.reserve(reference.size() + random() % 3000);
                    }
                    break;
                default: {
                    const auto at = reference.find(name);
                    QCOMPARE(index.find(name), at == reference.end() ? nullptr : at->second);
                    break;
                }
                }
                QCOMPARE(index.size(), reference.size());
                if (step % 1000 == 0 || step == 19999) {
                    compare(index, reference, universe,
                            qPrintable(QStringLiteral("seed %1 step %2").arg(seed).arg(step)));
                    if (QTest::currentTestFailed())
                        return;
                }
            }
            // Emptied one name at a time: every erase keeps the others findable.
            std::vector<std::string> present;
            for (const auto& [name, row] : reference)
                present.push_back(name);
            std::shuffle(present.begin(), present.end(), random);
            for (const std::string& name : present) {
                index.erase(name);
                reference.erase(name);
                compare(index, reference, universe, "emptying");
                if (QTest::currentTestFailed())
                    return;
            }
            QCOMPARE(index.size(), std::size_t(0));
        }
    }

    // Names that all land in one run of slots (a table kept small and full to its limit): erasing from
    // the middle, the start and the end of the run, wrapping around the table's end.
    void erasesInsideLongRuns() {
        std::mt19937 random(99);
        for (int round = 0; round < 200; ++round) {
            Rows rows;
            RowNameIndex<R> index;
            index.clear(); // 16 slots, 8 entries at most before it grows
            std::unordered_map<std::string, R*> reference;
            std::vector<std::string> universe;
            for (int i = 0; i < 8; ++i) {
                const std::string name = "r" + std::to_string(round) + "_" + std::to_string(random() % 40);
                universe.push_back(name);
                R* r = rows.make(name);
                index.insert(r);
                reference[name] = r;
            }
            std::shuffle(universe.begin(), universe.end(), random);
            for (const std::string& name : universe) {
                index.erase(name);
                reference.erase(name);
                compare(index, reference, universe, "run");
                if (QTest::currentTestFailed())
                    return;
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestRowNameIndex)
#include "tst_rownameindex.moc"
