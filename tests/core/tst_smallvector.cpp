// SmallVector: the validator's working lists, inline up to N elements and on the heap past them.
#include "core/SmallVector.h"

#include <QTest>

#include <algorithm>
#include <numeric>
#include <span>
#include <string_view>
#include <vector>

namespace jobdeck {

class TestSmallVector final : public QObject {
    Q_OBJECT

    struct Pair {
        std::string_view key;
        int index = -1;
    };

    // The same pushes into a SmallVector and a std::vector read back the same, whatever the count.
    template <std::size_t N> static void pushesReadBack(int count) {
        SmallVector<int, N> small;
        std::vector<int> expected;
        QVERIFY(small.empty());
        for (int i = 0; i < count; ++i) {
            small.push_back(i * 7);
            expected.push_back(i * 7);
            QCOMPARE(small.size(), expected.size());
            QCOMPARE(small.back(), i * 7);
        }
        QVERIFY(std::equal(small.begin(), small.end(), expected.begin(), expected.end()));
        const std::span<const int> view = std::as_const(small);
        QCOMPARE(view.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(small[i], expected[i]);
    }

private slots:
    void keepsEveryElementInlineAndPastIt() {
        pushesReadBack<4>(0);
        pushesReadBack<4>(3);
        pushesReadBack<4>(4);   // exactly full
        pushesReadBack<4>(5);   // the first push past N moves them to the heap
        pushesReadBack<4>(100); // and the heap grows
        pushesReadBack<1>(10);
    }

    void reserveKeepsTheElements() {
        SmallVector<int, 4> v;
        v.push_back(1);
        v.push_back(2);
        v.reserve(3); // within N: stays inline
        v.reserve(50);
        v.push_back(3);
        QCOMPARE(v.size(), std::size_t(3));
        QCOMPARE(v[0], 1);
        QCOMPARE(v[1], 2);
        QCOMPARE(v[2], 3);
    }

    void assignFillsInlineAndOnTheHeap() {
        SmallVector<Pair, 8> few;
        few.assign(8, Pair{});
        QCOMPARE(few.size(), std::size_t(8));
        QVERIFY(std::all_of(few.begin(), few.end(),
                            [](const Pair& p) { return p.index == -1 && p.key.empty(); }));
        SmallVector<Pair, 8> many;
        many.assign(64, Pair{"k", 3});
        QCOMPARE(many.size(), std::size_t(64));
        QVERIFY(std::all_of(many.begin(), many.end(),
                            [](const Pair& p) { return p.index == 3 && p.key == "k"; }));
        many.assign(2, Pair{});
        QCOMPARE(many.size(), std::size_t(2));
        QCOMPARE(many[1].index, -1);
    }

    void sortsInPlaceAsASpan() {
        SmallVector<int, 16> v;
        for (const int i : {5, 3, 9, 1, 7})
            v.push_back(i);
        std::sort(v.begin(), v.end());
        const std::vector<int> sorted(v.begin(), v.end());
        QCOMPARE(sorted, (std::vector<int>{1, 3, 5, 7, 9}));
        std::span<int> view = v;
        view[0] = 42;
        QCOMPARE(v[0], 42);
    }
};

} // namespace jobdeck

QTEST_GUILESS_MAIN(jobdeck::TestSmallVector)
#include "tst_smallvector.moc"
