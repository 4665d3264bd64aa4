// The suites of a layer are built into one executable (tests/<layer>/<layer>_suites), which runs the one
// its first argument names: `service_suites tst_jobs [Qt Test options]`. One executable per layer
// compiles, moc's and links once what ~120 executables did each.
#pragma once

#include <QStringList>

namespace jobdeck::test {

using SuiteEntry = int (*)(int argc, char** argv);

// Registers the suite defined in `sourceFile` under its base name (tests/service/tst_jobs.cpp → tst_jobs).
bool registerSuite(const char* sourceFile, SuiteEntry entry);

// Runs the suite argv[1] names with the remaining arguments; lists the suites when none is named.
int runNamedSuite(int argc, char** argv);

// The arguments that start the running suite again in a new process, before its own Qt Test options.
QStringList runningSuiteArguments();

} // namespace jobdeck::test

#define JOBDECK_SUITE_ENTRY(entry)                                                                           \
    namespace {                                                                                              \
    const bool jobdeckSuiteRegistered = ::jobdeck::test::registerSuite(__FILE__, entry);                     \
    }

// The suite's counterpart of QTEST_MAIN_WRAPPER: the same set-up, as a registered entry, not main().
// Expanded in a suite's file, after its <QtTest> (not included here: the runner itself needs none of it).
#define JOBDECK_SUITE_WRAPPER(TestObject, ...)                                                               \
    JOBDECK_SUITE_ENTRY(([](int argc, char** argv) -> int {                                                  \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                   \
        __VA_ARGS__                                                                                          \
        TestObject tc;                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&tc, argc, argv);                                                                \
    }))

// QTEST_MAIN, QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN for a suite of a layer's executable.
#define JOBDECK_TEST_MAIN(TestObject) JOBDECK_SUITE_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define JOBDECK_TEST_GUILESS_MAIN(TestObject)                                                                \
    JOBDECK_SUITE_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define JOBDECK_TEST_APPLESS_MAIN(TestObject) JOBDECK_SUITE_WRAPPER(TestObject)
