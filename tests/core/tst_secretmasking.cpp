#include "core/parameters/SecretMasking.h"
#include "core/policy/RunEndMessages.h"
#include "core/statements/StatementParser.h"
#include "core/wire/AuditEntry.h"
#include "core/wire/Cluster.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobRun.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <algorithm>

using namespace jobdeck;
using Strings = std::vector<std::string>;

Q_DECLARE_METATYPE(Strings)

class TestSecretMasking final : public QObject {
    Q_OBJECT
private slots:
    void secretKeys_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("secret");
        QTest::newRow("password") << "spark.db.password" << true;
        QTest::newRow("upper case") << "hoodie.x.PASSWORD" << true;
        QTest::newRow("mixed case") << "--Api-Token" << true;
        QTest::newRow("secret inside") << "spark.hadoop.fs.s3a.secret.key" << true;
        QTest::newRow("credentials") << "spark.hadoop.google.cloud.auth.service.account.json.credentials"
                                     << true;
        QTest::newRow("token suffix") << "--github_token" << true;
        QTest::newRow("plain") << "spark.executor.memory" << false;
        QTest::newRow("near miss") << "--pass" << false;
        QTest::newRow("access key, as Spark redacts it") << "spark.hadoop.fs.s3a.access.key" << true;
        QTest::newRow("Hudi's AWS access key") << "hoodie.aws.access.key" << true;
        QTest::newRow("AWS variable") << "AWS_ACCESS_KEY_ID" << true;
        QTest::newRow("record key") << "hoodie.datasource.write.recordkey.field" << false;
        QTest::newRow("passwd") << "--db-passwd" << true;
        QTest::newRow("passphrase") << "spark.ssl.keyStorePassphrase" << true;
        QTest::newRow("S3 signed URL") << "X-Amz-Signature" << true;
        QTest::newRow("Azure SAS") << "sig" << true;
        QTest::newRow("ODBC") << "PWD" << true;
        QTest::newRow("--pwd") << "--pwd" << true;
        QTest::newRow("HTTP header") << "Authorization" << true;
        QTest::newRow("authorization setting") << "hive.security.authorization.enabled" << false;
        QTest::newRow("sig inside a word") << "--sigma" << false;
        QTest::newRow("Hudi's callback API key") << "hoodie.write.commit.callback.http.api.key" << true;
        QTest::newRow("API key option") << "--api-key" << true;
        QTest::newRow("API key variable") << "DD_API_KEY" << true;
        QTest::newRow("API key supplier class") << "hoodie.metrics.datadog.api.key.supplier" << false;
        QTest::newRow("API key flag") << "hoodie.metrics.datadog.api.key.skip.validation" << false;
        QTest::newRow("private key") << "spark.snowflake.pem_private_key" << true;
        QTest::newRow("private key id") << "fs.gs.auth.service.account.private.key.id" << false;
        QTest::newRow("Azure account key")
            << "spark.hadoop.fs.azure.account.key.acct.dfs.core.windows.net" << true;
        QTest::newRow("Azure connection string") << "AccountKey" << true;
        QTest::newRow("Azure key provider") << "fs.azure.account.keyprovider.acct" << false;
        QTest::newRow("empty") << "" << false;
    }

    void secretKeys() {
        QFETCH(QString, key);
        QFETCH(bool, secret);
        QCOMPARE(isSecretKey(key.toStdString()), secret);
    }

    void maskParameterForms_data() {
        QTest::addColumn<Strings>("input");
        QTest::addColumn<Strings>("expected");
        QTest::newRow("--conf") << Strings{"--conf", "spark.hadoop.fs.s3a.secret.key=abc", "app.jar"}
                                << Strings{"--conf", "spark.hadoop.fs.s3a.secret.key=****", "app.jar"};
        QTest::newRow("-c") << Strings{"-c", "spark.db.password=p=w", "app.jar"}
                            << Strings{"-c", "spark.db.password=****", "app.jar"};
        QTest::newRow("--hudi-conf upper case")
            << Strings{"--hudi-conf", "hoodie.x.PASSWORD=hunter2", "app.jar"}
            << Strings{"--hudi-conf", "hoodie.x.PASSWORD=****", "app.jar"};
        QTest::newRow("application key=value")
            << Strings{"app.jar", "--db.password=x", "--date=2026-11-30"}
            << Strings{"app.jar", "--db.password=****", "--date=2026-11-30"};
        QTest::newRow("bare key=value")
            << Strings{"app.jar", "auth_token=t0k"} << Strings{"app.jar", "auth_token=****"};
        QTest::newRow("--password value") << Strings{"app.jar", "--password", "x", "--date", "d"}
                                          << Strings{"app.jar", "--password", "****", "--date", "d"};
        QTest::newRow("--api-token value")
            << Strings{"app.py", "--api-token", "a=b"} << Strings{"app.py", "--api-token", "****"};
        QTest::newRow("value starting with dash")
            << Strings{"app.py", "--secret", "-x9"} << Strings{"app.py", "--secret", "****"};
        // Any value after a secret-named argument is masked, whatever it starts with.
        QTest::newRow("value starting with --")
            << Strings{"app.py", "--api-token", "--X"} << Strings{"app.py", "--api-token", "****"};
        QTest::newRow("value that is a secret-named option")
            << Strings{"app.py", "--api-token", "--password", "x", "--date", "d"}
            << Strings{"app.py", "--api-token", "****", "****", "--date", "d"};
        // A secret-named option and its value in one argument ("--password x" on one line): the value,
        // whatever follows the blanks, is masked in the token; the next argument is not its value.
        QTest::newRow("--password value in one") << Strings{"app.jar", "--password hunter2", "--date", "d"}
                                                 << Strings{"app.jar", "--password ****", "--date", "d"};
        QTest::newRow("--db-password value in one, tabs, = in the value")
            << Strings{"app.py", "--db-password\t a=b --x y"} << Strings{"app.py", "--db-password\t ****"};
        QTest::newRow("--api-token value in one before the path")
            << Strings{"--api-token tok", "app.py"} << Strings{"--api-token ****", "app.py"};
        QTest::newRow("non-secret option and value in one")
            << Strings{"app.py", "--date 2026-12-04", "x"} << Strings{"app.py", "--date 2026-12-04", "x"};
        QTest::newRow("secret option with trailing blanks")
            << Strings{"app.py", "--password  ", "x"} << Strings{"app.py", "--password  ", "****"};
        QTest::newRow("secret option last")
            << Strings{"app.py", "--password"} << Strings{"app.py", "--password"};
        QTest::newRow("already masked")
            << Strings{"app.py", "--password", "****"} << Strings{"app.py", "--password", "****"};
        QTest::newRow("empty value") << Strings{"app.py", "--token="} << Strings{"app.py", "--token=****"};
        QTest::newRow("value named like a key")
            << Strings{"app.py", "--name", "password=1"} << Strings{"app.py", "--name", "password=****"};
        QTest::newRow("non-secret untouched")
            << Strings{"--class",        "com.x.Main",
                       "--conf",         "spark.executor.memory=4g",
                       "--hudi-conf",    "hoodie.upsert.shuffle.parallelism=8",
                       "s3://b/app.jar", "--date",
                       "2026-11-30",     "--mode=full"}
            << Strings{"--class",        "com.x.Main",
                       "--conf",         "spark.executor.memory=4g",
                       "--hudi-conf",    "hoodie.upsert.shuffle.parallelism=8",
                       "s3://b/app.jar", "--date",
                       "2026-11-30",     "--mode=full"};
        QTest::newRow("empty list") << Strings{} << Strings{};
        // Every form the classifier accepts for a configuration pair, and the option-like forms it
        // refuses (a refused statement is still audited).
        QTest::newRow("--conf=k=v") << Strings{"--conf=spark.db.password=X", "/app.py"}
                                    << Strings{"--conf=spark.db.password=****", "/app.py"};
        QTest::newRow("--conf=k=v with = in the value")
            << Strings{"--conf=spark.db.password=a=b", "/app.py"}
            << Strings{"--conf=spark.db.password=****", "/app.py"};
        QTest::newRow("--hudi-conf=k=v") << Strings{"--hudi-conf=hoodie.ds.password=Y", "/app.py"}
                                         << Strings{"--hudi-conf=hoodie.ds.password=****", "/app.py"};
        QTest::newRow("-c k=v") << Strings{"-c", "spark.c.token=Z", "/app.py"}
                                << Strings{"-c", "spark.c.token=****", "/app.py"};
        QTest::newRow("-ck=v (refused)")
            << Strings{"-cspark.c.token=Z", "/app.py"} << Strings{"-cspark.c.token=****", "/app.py"};
        QTest::newRow("-c=k=v (refused)")
            << Strings{"-c=spark.c.token=Z", "/app.py"} << Strings{"-c=spark.c.token=****", "/app.py"};
        QTest::newRow("--hoodie-conf k=v (refused)")
            << Strings{"--hoodie-conf", "hoodie.x.password=Y", "/app.py"}
            << Strings{"--hoodie-conf", "hoodie.x.password=****", "/app.py"};
        QTest::newRow("--hoodie-conf=k=v (refused)")
            << Strings{"--hoodie-conf=hoodie.x.password=Y", "/app.py"}
            << Strings{"--hoodie-conf=hoodie.x.password=****", "/app.py"};
        QTest::newRow("--hudi-conf after the path")
            << Strings{"/app.py", "--hudi-conf", "hoodie.x.password=Y", "--hudi-conf=hoodie.y.secret=W"}
            << Strings{"/app.py", "--hudi-conf", "hoodie.x.password=****",
                       "--hudi-conf=hoodie.y.secret=****"};
        QTest::newRow("--conf=k=v after the path")
            << Strings{"/app.py", "--conf=spark.x.credential=C", "--hoodie-conf=hoodie.z.token=T"}
            << Strings{"/app.py", "--conf=spark.x.credential=****", "--hoodie-conf=hoodie.z.token=****"};
        QTest::newRow("inline option value") << Strings{"--driver-java-options=-Dpassword=P", "/app.py"}
                                             << Strings{"--driver-java-options=-Dpassword=****", "/app.py"};
        QTest::newRow("option value") << Strings{"--driver-java-options", "-Ddb.password=P", "/app.py"}
                                      << Strings{"--driver-java-options", "-Ddb.password=****", "/app.py"};
        QTest::newRow("every -D pair of --driver-java-options")
            << Strings{"--driver-java-options", "-Da=1 -Db=2 -Dpw.password=X", "/app.py"}
            << Strings{"--driver-java-options", "-Da=1 -Db=2 -Dpw.password=****", "/app.py"};
        QTest::newRow("-D pairs, several secret, quoted, tabs")
            << Strings{"--driver-java-options=-Dx.token=T1\t-Dn=1  -Dq.secret=\"a b\" -Dz=2", "/app.py"}
            << Strings{"--driver-java-options=-Dx.token=****\t-Dn=1  -Dq.secret=**** -Dz=2", "/app.py"};
        QTest::newRow("-D pairs in a --conf java options value")
            << Strings{"--conf", "spark.driver.extraJavaOptions=-Da=1 -Db=2 -Ddb.password=X",
                       "--conf=spark.executor.extraJavaOptions=-XX:+UseG1GC -Dk.credential=C", "/app.py"}
            << Strings{"--conf", "spark.driver.extraJavaOptions=-Da=1 -Db=2 -Ddb.password=****",
                       "--conf=spark.executor.extraJavaOptions=-XX:+UseG1GC -Dk.credential=****", "/app.py"};
        QTest::newRow("-D pairs in an application argument")
            << Strings{"/app.py", "--jvm", "-Da=1 -Db=2 -Dc=3 -Dpw.password=X -Dd=4"}
            << Strings{"/app.py", "--jvm", "-Da=1 -Db=2 -Dc=3 -Dpw.password=**** -Dd=4"};
        QTest::newRow("issue 19 example")
            << Strings{"--conf=spark.db.password=X", "--hudi-conf=hoodie.ds.password=Y", "/app.py"}
            << Strings{"--conf=spark.db.password=****", "--hudi-conf=hoodie.ds.password=****", "/app.py"};
        // A command line pasted into one parameter: the secret after the first word is hidden where it is,
        // up to the next option, whatever the parameter is.
        QTest::newRow("a secret pair after a --conf pair in one")
            << Strings{"--conf", "spark.y=1 --conf spark.hadoop.fs.s3a.secret.key=S1 --conf spark.z=2",
                       "app.jar"}
            << Strings{"--conf", "spark.y=1 --conf spark.hadoop.fs.s3a.secret.key=**** --conf spark.z=2",
                       "app.jar"};
        QTest::newRow("the same, inline")
            << Strings{"--conf=spark.y=1 --conf spark.password=S2", "app.jar"}
            << Strings{"--conf=spark.y=1 --conf spark.password=****", "app.jar"};
        QTest::newRow("a secret Hudi pair after a --hudi-conf pair in one")
            << Strings{"--hudi-conf", "hoodie.x=1 --hudi-conf=hoodie.ds.password=S3", "app.jar"}
            << Strings{"--hudi-conf", "hoodie.x=1 --hudi-conf=hoodie.ds.password=****", "app.jar"};
        QTest::newRow("a secret option in an option's value")
            << Strings{"--name", "nightly --password S4 --verbose", "app.jar"}
            << Strings{"--name", "nightly --password **** --verbose", "app.jar"};
        QTest::newRow("a secret option after an argument in one")
            << Strings{"app.jar", "--date 1 --api-token 'S5 S6'"}
            << Strings{"app.jar", "--date 1 --api-token ****"};
        QTest::newRow("a secret value with blanks, up to the next option")
            << Strings{"app.jar", "--date 1 --password S7 S8 --x"}
            << Strings{"app.jar", "--date 1 --password **** --x"};
        // Secrets inside a value, found by their syntax whatever parameter holds them.
        QTest::newRow("a JDBC URL's password in a --conf value")
            << Strings{"--conf", "spark.jdbc.url=jdbc:postgresql://h/db?user=u&password=Jd1&ssl=true",
                       "app.jar"}
            << Strings{"--conf", "spark.jdbc.url=jdbc:postgresql://h/db?user=u&password=****&ssl=true",
                       "app.jar"};
        QTest::newRow("JDBC properties after ';' in an argument")
            << Strings{"app.jar", "--url", "jdbc:sqlserver://h:1433;databaseName=d;password=Jd2;encrypt=true"}
            << Strings{"app.jar", "--url",
                       "jdbc:sqlserver://h:1433;databaseName=d;password=****;encrypt=true"};
        QTest::newRow("JAAS options in a --conf value")
            << Strings{"--conf",
                       "spark.kafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
                       "required username=\"u\" password=\"Ja 1\";",
                       "app.jar"}
            << Strings{"--conf",
                       "spark.kafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
                       "required username=\"u\" password=****",
                       "app.jar"};
        // A parameter's first '=' ends its key: the rest is that key's value (to the end).
        QTest::newRow("a presigned URL's token: the path, an option's value")
            << Strings{"--files", "https://b.example/f?a=1&X-Amz-Security-Token=Tk1&X-Amz-Expires=60",
                       "https://b.example/app.jar?X-Amz-Security-Token=Tk2&X-Amz-Expires=60"}
            << Strings{"--files", "https://b.example/f?a=1&X-Amz-Security-Token=****&X-Amz-Expires=60",
                       "https://b.example/app.jar?X-Amz-Security-Token=****&X-Amz-Expires=60"};
        QTest::newRow("a signed URL: the members after the signature stay")
            << Strings{"app.py",
                       "--in",
                       "https://b.example/in.csv?X-Amz-Signature=S1&X-Amz-Expires=60",
                       "--out=https://b.example/o?sig=S2&se=2027",
                       "--q",
                       "h/x?password=p w&b=2"}
            << Strings{"app.py",
                       "--in",
                       "https://b.example/in.csv?X-Amz-Signature=****&X-Amz-Expires=60",
                       "--out=https://b.example/o?sig=****&se=2027",
                       "--q",
                       "h/x?password=****&b=2"};
        QTest::newRow("a JDBC property list's value runs over blanks")
            << Strings{"--conf", "spark.jdbc.url=jdbc:sqlserver://h;user=u;password=my pass;encrypt=true",
                       "app.py"}
            << Strings{"--conf", "spark.jdbc.url=jdbc:sqlserver://h;user=u;password=****;encrypt=true",
                       "app.py"};
        QTest::newRow("a URL's password: --jars, the path, an argument")
            << Strings{"--jars", "https://ci:Ur1@repo.example/a.jar,https://ci:Ur2@repo.example/b.jar",
                       "https://u:Ur3@h/app.jar", "--out", "s3a://k:Ur4@bucket/out"}
            << Strings{"--jars", "https://ci:****@repo.example/a.jar,https://ci:****@repo.example/b.jar",
                       "https://u:****@h/app.jar", "--out", "s3a://k:****@bucket/out"};
        QTest::newRow("a URL's password holding '@' and ':'")
            << Strings{"app.jar", "--db", "mongodb+srv://u:p@s:s@cluster0.example/db"}
            << Strings{"app.jar", "--db", "mongodb+srv://u:****@cluster0.example/db"};
        QTest::newRow("JSON and Python dict members")
            << Strings{"app.py", "{\"user\": \"u\", \"password\": \"Js\\\"1\", \"n\": 1}",
                       "--cfg={'api_token': 12, 'x': 'y'}"}
            << Strings{"app.py", "{\"user\": \"u\", \"password\": \"****\", \"n\": 1}",
                       "--cfg={'api_token': ****, 'x': 'y'}"};
        QTest::newRow("YAML members")
            << Strings{"app.py", "db: {user: u, password: Ym 1 }", "--api-token: abc", "ok: 1"}
            << Strings{"app.py", "db: {user: u, password: **** }", "--api-token: ****", "ok: 1"};
        // Two readings of one value, or a value next to another, give one ****.
        QTest::newRow("one **** a value")
            << Strings{"app.py", "x password=", "token: =", "https://u:p=1@h/"}
            << Strings{"app.py", "x password=****", "token: ****", "https://u:****@h/"};
        QTest::newRow("nothing secret in URLs, queries and JSON")
            << Strings{"--jars", "https://ci@repo.example/a.jar",
                       "jdbc:postgresql://h/db?user=u&sslmode=require", "{\"user\": \"u\"}",
                       "http://h:8080/x?a=1"}
            << Strings{"--jars", "https://ci@repo.example/a.jar",
                       "jdbc:postgresql://h/db?user=u&sslmode=require", "{\"user\": \"u\"}",
                       "http://h:8080/x?a=1"};
        QTest::newRow("a secret word in a value is a value")
            << Strings{"--conf=spark.app.name=my-token=abc", "--conf", "spark.x=password=1", "/app.py"}
            << Strings{"--conf=spark.app.name=my-token=abc", "--conf", "spark.x=password=1", "/app.py"};
    }

    void maskParameterForms() {
        QFETCH(Strings, input);
        QFETCH(Strings, expected);
        QCOMPARE(maskParameters(input), expected);
    }

    void unmaskRoundTrip_data() {
        QTest::addColumn<Strings>("stored");
        QTest::newRow("every form") << Strings{"--conf",      "spark.hadoop.fs.s3a.secret.key=abc",
                                               "--hudi-conf", "hoodie.x.PASSWORD=h=2",
                                               "--conf",      "spark.executor.memory=4g",
                                               "app.jar",     "--password",
                                               "pw",          "--db.password=dbpw",
                                               "--date",      "2026-11-30"};
        QTest::newRow("a secret option's value that is a secret-named option")
            << Strings{"app.jar", "--password", "--my-token", "abc", "--date", "d"};
        QTest::newRow("empty and adjacent values")
            << Strings{"app.py", "x password=", "token: =", "https://u:p=1@h/"};
        QTest::newRow("repeated key")
            << Strings{"app.jar", "--token", "first", "--x", "1", "--token", "second"};
        QTest::newRow("nothing secret") << Strings{"--conf", "spark.a=b", "app.jar", "--date", "d"};
        QTest::newRow("-D pairs") << Strings{"--driver-java-options",
                                             "-Da=1 -Dpw.password=X -Dq.secret='y z' -Db=2",
                                             "--conf",
                                             "spark.driver.extraJavaOptions=-Dk.token=K -Dm=1",
                                             "/app.py",
                                             "--api-token",
                                             "--starts-with-dashes"};
        QTest::newRow("in one") << Strings{"app.jar", "--password pw", "--api-token\tt k", "--date", "d"};
        QTest::newRow("pasted command lines")
            << Strings{"--conf",  "spark.y=1 --conf spark.db.password=P --conf spark.z=2",
                       "--name",  "n --token 'a b'",
                       "app.jar", "--date 1 --secret S"};
        QTest::newRow("embedded forms")
            << Strings{"--conf",
                       "spark.jdbc.url=jdbc:postgresql://h/db?user=u&password=J1&x=1",
                       "--jars",
                       "https://ci:U1@repo.example/a.jar",
                       "https://u:U2@h/app.jar",
                       "{\"password\": \"J2\", \"token\": 7}",
                       "jdbc:sqlserver://h;password=J3;x=1"};
        QTest::newRow("= forms") << Strings{"--conf=spark.db.password=X",
                                            "-c",
                                            "spark.c.token=Z",
                                            "--hudi-conf=hoodie.ds.password=Y=1",
                                            "/app.py",
                                            "--conf=spark.z.secret=W",
                                            "--hudi-conf=hoodie.q.password=Q",
                                            "--db-password=D"};
        QTest::newRow("signed URLs and keys by other names")
            << Strings{"--conf",
                       "spark.hadoop.fs.azure.account.key.a.dfs.core.windows.net=K1",
                       "https://b.example/app.py?X-Amz-Security-Token=T1&X-Amz-Expires=60",
                       "--api-key",
                       "K2",
                       "--out=https://b.example/o?sig=S2&se=2027",
                       "--pwd=P1",
                       "--header",
                       "Authorization: Bearer A1"};
    }

    void unmaskRoundTrip() {
        QFETCH(Strings, stored);
        const Strings masked = maskParameters(stored);
        QCOMPARE(unmaskParameters(masked, stored), stored);
        QVERIFY(!findUnresolvedMask(masked, stored));
    }

    void unmaskKeepsNewValuesAndEdits() {
        const Strings stored{"--conf", "spark.db.password=old", "app.jar", "--api-token", "tok", "--date",
                             "d1"};
        // The user edited a non-secret argument and replaced one secret; the other stays masked.
        const Strings submitted{"--conf", "spark.db.password=new", "app.jar", "--api-token", "****", "--date",
                                "d2"};
        QCOMPARE(unmaskParameters(submitted, stored), (Strings{"--conf", "spark.db.password=new", "app.jar",
                                                               "--api-token", "tok", "--date", "d2"}));
        QVERIFY(!findUnresolvedMask(submitted, stored));
    }

    void unmaskAcrossForms() {
        // A secret stored as "--password x" and sent back as "--password=****" keeps its value, and the
        // reverse.
        QCOMPARE(unmaskParameters({"app.jar", "--password=****"}, {"app.jar", "--password", "x"}),
                 (Strings{"app.jar", "--password=x"}));
        QCOMPARE(unmaskParameters({"app.jar", "--password", "****"}, {"app.jar", "--password=x"}),
                 (Strings{"app.jar", "--password", "x"}));
        // A configuration stored as "--conf k=v" and sent back as "--conf=k=****" keeps its value, and the
        // reverse; -c and --conf name the same setting.
        QCOMPARE(unmaskParameters({"--conf=spark.db.password=****", "/app.py"},
                                  {"--conf", "spark.db.password=X", "/app.py"}),
                 (Strings{"--conf=spark.db.password=X", "/app.py"}));
        QCOMPARE(unmaskParameters(
                     {"-c", "spark.db.password=****", "--hudi-conf", "hoodie.ds.password=****", "/app.py"},
                     {"--conf=spark.db.password=X", "--hudi-conf=hoodie.ds.password=Y", "/app.py"}),
                 (Strings{"-c", "spark.db.password=X", "--hudi-conf", "hoodie.ds.password=Y", "/app.py"}));
        QVERIFY(!findUnresolvedMask({"--conf=spark.db.password=****", "/app.py"},
                                    {"--conf", "spark.db.password=X", "/app.py"}));
        // "--password x" in one argument and the two-argument form name the same setting.
        QCOMPARE(unmaskParameters({"app.jar", "--password ****"}, {"app.jar", "--password", "x"}),
                 (Strings{"app.jar", "--password x"}));
        QCOMPARE(unmaskParameters({"app.jar", "--password", "****"}, {"app.jar", "--password x"}),
                 (Strings{"app.jar", "--password", "x"}));
        // More masked occurrences than stored ones reuse the last stored value.
        QCOMPARE(unmaskParameters({"app.jar", "--token=****", "--token=****"}, {"app.jar", "--token=a"}),
                 (Strings{"app.jar", "--token=a", "--token=a"}));
    }

    // A pasted command line split into its parameters (the editor's fix of option.value-holds-option on
    // what DESCRIBE showed) keeps the stored secret in its own pair.
    void unmaskAfterSplittingAPastedCommandLine() {
        const Strings stored{"--conf", "spark.y=1 --conf spark.db.password=P --conf spark.z=2", "app.jar"};
        QCOMPARE(maskParameters(stored),
                 (Strings{"--conf", "spark.y=1 --conf spark.db.password=**** --conf spark.z=2", "app.jar"}));
        const Strings split{"--conf", "spark.y=1", "--conf", "spark.db.password=****",
                            "--conf", "spark.z=2", "app.jar"};
        QCOMPARE(unmaskParameters(split, stored),
                 (Strings{"--conf", "spark.y=1", "--conf", "spark.db.password=P", "--conf", "spark.z=2",
                          "app.jar"}));
        QVERIFY(!findUnresolvedMask(split, stored));
    }

    void unresolvedMask() {
        const Strings stored{"--conf", "spark.executor.memory=4g", "app.jar"};
        const Strings submitted{"--conf", "spark.executor.memory=4g", "--conf", "spark.db.Password=****",
                                "app.jar"};
        QCOMPARE(unmaskParameters(submitted, stored), submitted);
        const auto message = findUnresolvedMask(submitted, stored);
        QVERIFY(message);
        QCOMPARE(*message,
                 std::string("The value of 'spark.db.Password' is masked (****) but the Job has no stored "
                             "value for it; send the real value."));
        const auto option = findUnresolvedMask({"app.jar", "--api-token", "****"}, {"app.jar"});
        QVERIFY(option);
        QVERIFY2(option->find("'--api-token'") != std::string::npos, option->c_str());
        // A URL's password is named by the URL without it.
        const auto url = findUnresolvedMask({"https://ci:****@repo.example/app.jar"}, {"app.jar"});
        QVERIFY(url);
        QVERIFY2(url->find("'https://ci@repo.example'") != std::string::npos, url->c_str());
        // **** for a key that is not secret is a literal value, not a mask.
        QVERIFY(!findUnresolvedMask({"app.jar", "--date", "****"}, {"app.jar"}));
    }

    void maskWireObjects() {
        SparkJob job;
        job.parameters = {"--conf",  "spark.a.secret=s", "--conf", "spark.a=1",
                          "app.jar", "--token",          "t",      "hoodie.b.password=p"};
        job.applicationPath = "app.jar";
        job.arguments = {"--token", "t", "hoodie.b.password=p"};
        job.sparkConfigs = {{"spark.a.secret", "s"}, {"spark.a", "1"}};
        job.hudiConfigs = {{"hoodie.c.CREDENTIAL", "c"}, {"hoodie.d", "2"}};
        job.hudiConfigsStatus = {{"hoodie.c.CREDENTIAL", HudiConfigStatus::Applied}};
        job.misplacedHudiConfigs = {"hoodie.b.password=p"};
        maskJob(job);
        QCOMPARE(job.parameters, (Strings{"--conf", "spark.a.secret=****", "--conf", "spark.a=1", "app.jar",
                                          "--token", "****", "hoodie.b.password=****"}));
        QCOMPARE(job.arguments, (Strings{"--token", "****", "hoodie.b.password=****"}));
        QCOMPARE(job.sparkConfigs,
                 (std::map<std::string, std::string>{{"spark.a.secret", "****"}, {"spark.a", "1"}}));
        QCOMPARE(job.hudiConfigs,
                 (std::map<std::string, std::string>{{"hoodie.c.CREDENTIAL", "****"}, {"hoodie.d", "2"}}));
        QCOMPARE(job.misplacedHudiConfigs, Strings{"hoodie.b.password=****"});
        QCOMPARE(job.applicationPath, std::string("app.jar"));
        job.applicationPath = "https://ci:Pw@repo.example/app.jar?token=T";
        maskJob(job);
        QCOMPARE(job.applicationPath, std::string("https://ci:****@repo.example/app.jar?token=****"));

        SparkJobRun run;
        run.argumentOverrides = {{"--db-password", "p"}, {"--date", "d"}};
        run.arguments = {"--db-password", "p", "--date", "d", "--api-token", "--X"};
        maskRun(run);
        QCOMPARE(run.arguments, (Strings{"--db-password", "****", "--date", "d", "--api-token", "****"}));
        QVERIFY((run.argumentOverrides == std::vector<std::pair<std::string, std::string>>{
                                              {"--db-password", "****"}, {"--date", "d"}}));

        Cluster cluster;
        cluster.with = {{"spark.hadoop.fs.s3a.secret.key", "k"}, {"spark.executor.memory", "4g"}};
        cluster.sparkConfigs = {{"spark.hadoop.fs.s3a.secret.key", "k"},
                                {"spark.executor.memory", "4g"},
                                {"spark.driver.extraJavaOptions", "-Da=1 -Db=2 -Dpw.password=X"}};
        cluster.hudiConfigs = {{"hoodie.api.token", "t"}};
        maskCluster(cluster);
        QVERIFY((cluster.with ==
                 std::vector<std::pair<std::string, std::string>>{{"spark.hadoop.fs.s3a.secret.key", "****"},
                                                                  {"spark.executor.memory", "4g"}}));
        QCOMPARE(cluster.sparkConfigs.at("spark.hadoop.fs.s3a.secret.key"), std::string("****"));
        QCOMPARE(cluster.sparkConfigs.at("spark.executor.memory"), std::string("4g"));
        QCOMPARE(cluster.sparkConfigs.at("spark.driver.extraJavaOptions"),
                 std::string("-Da=1 -Db=2 -Dpw.password=****"));
        QCOMPARE(cluster.hudiConfigs.at("hoodie.api.token"), std::string("****"));
        cluster.with = {{"spark.jars.repositories", "https://ci:Rp@repo.example/m2"}};
        maskCluster(cluster);
        QCOMPARE(cluster.with.front().second, std::string("https://ci:****@repo.example/m2"));

        AuditEntry entry;
        entry.headers = {{"x-onehouse-api-secret", "s"}, {"x-onehouse-region", "r"}};
        maskAudit(entry);
        QCOMPARE(entry.headers.at("x-onehouse-api-secret"), std::string("****"));
        QCOMPARE(entry.headers.at("x-onehouse-region"), std::string("r"));
    }

    void maskArgumentForms() {
        // A run's arguments have no path: every token is read as an application argument.
        QCOMPARE(maskArguments(
                     {"--conf=spark.x.password=P", "--db-password", "D", "--date", "d", "hoodie.y.token=T"}),
                 (Strings{"--conf=spark.x.password=****", "--db-password", "****", "--date", "d",
                          "hoodie.y.token=****"}));
        SparkJobRun run;
        run.arguments = {"--hoodie-conf=hoodie.z.secret=S", "--x", "1"};
        maskRun(run);
        QCOMPARE(run.arguments, (Strings{"--hoodie-conf=hoodie.z.secret=****", "--x", "1"}));
    }

    void maskStatementText_data() {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("secrets");
        QTest::newRow("parsed, = forms")
            << "create job j type = 'PYTHON' parameters = ('--conf=spark.db.password=X1', "
               "'--hudi-conf=hoodie.ds.password=Y1', '-c', 'spark.c.token=Z1', '/app.py', '--api-token=A1') "
               "cluster = 'c'"
            << "CREATE JOB j TYPE = 'PYTHON' PARAMETERS = ('--conf=spark.db.password=****', "
               "'--hudi-conf=hoodie.ds.password=****', '-c', 'spark.c.token=****', '/app.py', "
               "'--api-token=****') CLUSTER = 'c'"
            << QStringList{"X1", "Y1", "Z1", "A1"};
        QTest::newRow("parsed ALTER")
            << "ALTER JOB j SET PARAMETERS = ('--conf', 'spark.db.password=X2', '/app.py', '--password', "
               "'P2')"
            << "ALTER JOB j SET PARAMETERS = ('--conf', 'spark.db.password=****', '/app.py', '--password', "
               "'****')"
            << QStringList{"X2", "P2"};
        QTest::newRow("parsed, -D pairs and a value starting with --")
            << "create job j type = 'PYTHON' parameters = ('--driver-java-options', '-Da=1 -Db=2 "
               "-Dpw.password=PJ18 -Dz=1', '/app.py', '--api-token', '--PT18') cluster = 'c'"
            << "CREATE JOB j TYPE = 'PYTHON' PARAMETERS = ('--driver-java-options', '-Da=1 -Db=2 "
               "-Dpw.password=**** -Dz=1', '/app.py', '--api-token', '****') CLUSTER = 'c'"
            << QStringList{"PJ18", "--PT18"};
        QTest::newRow("parsed RUN and WITH")
            << "RUN JOB j ARGUMENTS = ('--db-password' = 'R3', '--date' = 'd')"
            << "RUN JOB j ARGUMENTS = ('--db-password' = '****', '--date' = 'd')" << QStringList{"R3"};
        QTest::newRow("an option and its value in one, parsed")
            << "ALTER JOB j SET PARAMETERS = ('/app.py', '--password PW5 x', '--date', 'd')"
            << "ALTER JOB j SET PARAMETERS = ('/app.py', '--password ****', '--date', 'd')"
            << QStringList{"PW5 x"};
        QTest::newRow("an option and its value in one, unparsed")
            << "ALTER JOB j SET PARAMETERS ('/app.py', '--api-token\tAT6', 'next')"
            << "ALTER JOB j SET PARAMETERS ('/app.py', '--api-token\t****', 'next')" << QStringList{"AT6"};
        QTest::newRow("unparsed, = forms")
            << "CREATE JOB j TYPE = 'PYTHON' PARAMETERS = ('--conf=spark.db.password=X4', "
               "'--hudi-conf=hoodie.ds.password=Y4', '-c=spark.c.token=Z4', '/app.py') CLUSTER 'c'"
            << "CREATE JOB j TYPE = 'PYTHON' PARAMETERS = ('--conf=spark.db.password=****', "
               "'--hudi-conf=hoodie.ds.password=****', '-c=spark.c.token=****', '/app.py') CLUSTER 'c'"
            << QStringList{"X4", "Y4", "Z4"};
        QTest::newRow("unparsed, separate tokens")
            << "CREATE JOB j PARAMETERS ('--conf', 'spark.x.password=X5', '--api-token', 'A5', 'it''s'"
            << "CREATE JOB j PARAMETERS ('--conf', 'spark.x.password=****', '--api-token', '****', 'it''s'"
            << QStringList{"X5", "A5"};
        QTest::newRow("unparsed, quoted key then value")
            << "ALTER CLUSTER c WITH 'db.password' = 'W6' oops"
            << "ALTER CLUSTER c WITH 'db.password' = '****' oops" << QStringList{"W6"};
        QTest::newRow("unparsed, bare key=value")
            << "ALTER CLUSTER x WITH db.password=B7"
            << "ALTER CLUSTER x WITH db.password=****" << QStringList{"B7"};
        QTest::newRow("unparsed, back-quoted value after a quoted key")
            << "CREATE JOB j PARAMETERS ('--api-token', `BQ9`, 'next') oops"
            << "CREATE JOB j PARAMETERS ('--api-token', `****`, 'next') oops" << QStringList{"BQ9"};
        QTest::newRow("unparsed, double-quoted value after a quoted key")
            << "RUN JOB j ARGUMENTS = ('--db-password' = \"DQ10\", '--date' = 'd') oops"
            << "RUN JOB j ARGUMENTS = ('--db-password' = \"****\", '--date' = 'd') oops"
            << QStringList{"DQ10"};
        QTest::newRow("unparsed, bare value after a quoted key")
            << "RUN JOB j ARGUMENTS = ('--db-password' = BARE11, '--date' = 'd') oops"
            << "RUN JOB j ARGUMENTS = ('--db-password' = ****, '--date' = 'd') oops" << QStringList{"BARE11"};
        QTest::newRow("unparsed, bare value after a quoted key, no =")
            << "CREATE JOB j PARAMETERS ('/app.py', '--password', hunter12, 'keep') oops"
            << "CREATE JOB j PARAMETERS ('/app.py', '--password', ****, 'keep') oops"
            << QStringList{"hunter12"};
        QTest::newRow("unparsed, back-quoted and double-quoted after a bare key")
            << "ALTER CLUSTER c WITH db.password = `BQ13` x.token=\"DQ13\" oops"
            << "ALTER CLUSTER c WITH db.password = `****` x.token=\"****\" oops"
            << QStringList{"BQ13", "DQ13"};
        QTest::newRow("unparsed, bare value with = and symbols")
            << "ALTER CLUSTER c WITH db.password=p=w!14 oops"
            << "ALTER CLUSTER c WITH db.password=**** oops" << QStringList{"p=w!14"};
        QTest::newRow("unparsed, -D pairs in a string")
            << "CREATE JOB j PARAMETERS ('--driver-java-options', '-Da=1 -Db=2 -Dpw.password=JD15') oops"
            << "CREATE JOB j PARAMETERS ('--driver-java-options', '-Da=1 -Db=2 -Dpw.password=****') oops"
            << QStringList{"JD15"};
        QTest::newRow("unparsed, value starting with -- after a quoted key")
            << "CREATE JOB j PARAMETERS ('/app.py', '--api-token', '--DD16') oops"
            << "CREATE JOB j PARAMETERS ('/app.py', '--api-token', '****') oops" << QStringList{"--DD16"};
        QTest::newRow("unparsed, a later string is not masked for an earlier key")
            << "RUN JOB j ARGUMENTS = ('--db-password' = BARE17, '--date' = 'keep17') oops"
            << "RUN JOB j ARGUMENTS = ('--db-password' = ****, '--date' = 'keep17') oops"
            << QStringList{"BARE17"};
        QTest::newRow("unparsed, unterminated")
            << "CREATE JOB u PARAMETERS = ('--conf=spark.a.secret=U8"
            << "CREATE JOB u PARAMETERS = ('--conf=spark.a.secret=****" << QStringList{"U8"};
    }

    void maskStatementText() {
        QFETCH(QString, statement);
        QFETCH(QString, expected);
        QFETCH(QStringList, secrets);
        const MaskedStatement masked = maskStatement(statement.toStdString());
        QCOMPARE(QString::fromStdString(masked.text), expected);
        std::vector<std::string> hidden;
        for (const QString& secret : secrets) {
            QVERIFY2(std::find(masked.secrets.begin(), masked.secrets.end(), secret.toStdString()) !=
                         masked.secrets.end(),
                     qPrintable(secret));
            hidden.push_back(secret.toStdString());
        }
        // What a parse error quotes is scrubbed with the same list.
        std::string message = "near '" + statement.toStdString() + "'";
        scrubSecrets(message, masked.secrets);
        for (const auto& secret : hidden)
            QVERIFY2(message.find(secret) == std::string::npos, message.c_str());
    }

    // Every occurrence; an empty secret replaces nothing (it would be found at every place, for ever).
    void scrubReplacesEveryOccurrence() {
        std::string message = "pw pw, x";
        scrubSecrets(message, {"", "pw"});
        QCOMPARE(message, std::string("**** ****, x"));
    }

    // A statement the console builds is masked as the same statement parsed from its text, in either layout.
    void maskBuiltStatement() {
        CreateJobStatement create;
        create.name = "j";
        create.parameters = {"--conf", "spark.db.password=p1", "app.jar", "--token", "t1"};
        create.cluster = "c";
        const Statement statement{create};
        for (const StatementLayout layout : {StatementLayout::OneLine, StatementLayout::ParameterPerLine}) {
            const MaskedStatement masked = maskStatement(statement, layout);
            // Parsed text is printed back in one line.
            const MaskedStatement parsed = maskStatement(printStatement(statement, layout));
            const ParseResult reread = parseStatement(masked.text);
            QVERIFY(reread.statement);
            QCOMPARE(printStatement(*reread.statement), parsed.text);
            Strings secrets = masked.secrets;
            std::sort(secrets.begin(), secrets.end());
            QCOMPARE(secrets, (Strings{"p1", "t1"}));
            QVERIFY(masked.text.find("p1") == std::string::npos);
            QVERIFY(masked.text.find("'spark.db.password=****'") != std::string::npos);
        }
        QVERIFY(maskStatement(statement, StatementLayout::ParameterPerLine).text.find('\n') !=
                std::string::npos);
    }

    void unmaskClusterPairs() {
        using Pairs = std::vector<std::pair<std::string, std::string>>;
        const Pairs stored{
            {"spark.a.secret", "s1"}, {"spark.jars.repositories", "https://ci:s2@repo/m2"}, {"spark.b", "1"}};
        Pairs masked = stored;
        maskPairs(masked);
        QVERIFY((masked == Pairs{{"spark.a.secret", "****"},
                                 {"spark.jars.repositories", "https://ci:****@repo/m2"},
                                 {"spark.b", "1"}}));
        const auto same = unmaskPairs(masked, stored);
        QVERIFY(same.pairs == stored);
        QVERIFY(!same.unresolved);
        // An edit around a masked secret keeps it; a new value replaces it; **** of a key that is not secret
        // is a value.
        const auto edited = unmaskPairs({{"spark.jars.repositories", "https://ci:****@repo/maven2"},
                                         {"spark.a.secret", "new"},
                                         {"spark.b", "****"}},
                                        stored);
        QVERIFY((edited.pairs == Pairs{{"spark.jars.repositories", "https://ci:s2@repo/maven2"},
                                       {"spark.a.secret", "new"},
                                       {"spark.b", "****"}}));
        QVERIFY(!edited.unresolved);
        const auto unresolved = unmaskPairs({{"spark.c.token", "****"}}, stored);
        QVERIFY(unresolved.unresolved);
        QCOMPARE(
            unresolved.unresolved->message(UnresolvedMask::Holder::Cluster),
            std::string("The value of 'spark.c.token' is masked (****) but the cluster has no stored value "
                        "for it; send the real value."));
        QCOMPARE(unmaskPairs({{"spark.x", "https://u:****@h/"}}, {}).unresolved->key,
                 std::string("https://u@h"));
    }

    void pairSecretRangesAreWhereMaskPairsMasks() {
        using Ranges = std::vector<std::pair<std::size_t, std::size_t>>;
        QCOMPARE(pairSecretRanges("spark.a.secret", "s3cr3t"), (Ranges{{0, 6}}));
        QCOMPARE(pairSecretRanges("spark.a.secret", ""), Ranges{});
        QCOMPARE(pairSecretRanges("spark.jars.repositories", "https://ci:pw@repo/m2"), (Ranges{{11, 2}}));
        QCOMPARE(pairSecretRanges("spark.driver.extraJavaOptions", "-Da=1 -Dk.token=T -Db=2"),
                 (Ranges{{16, 1}}));
        QCOMPARE(pairSecretRanges("spark.executor.memory", "4g"), Ranges{});
    }

    // A run's message naming the cluster manager shows a password in its URL as ****.
    void aRunsMessageMasksTheMastersPassword() {
        const std::string master = "k8s://https://ci:Pw9@api.example:6443";
        for (const std::string& message :
             {noSubmissionIdMessage(master), submissionFailedMessage(master, exitedWithCodeHow(1)),
              clusterDriverLostMessage(master, "driver-1", true, 3)}) {
            QVERIFY2(message.find("k8s://https://ci:****@api.example:6443") != std::string::npos,
                     message.c_str());
            QVERIFY2(message.find("Pw9") == std::string::npos, message.c_str());
        }
    }

    void maskPairsForWithAndOverrides() {
        std::vector<std::pair<std::string, std::string>> pairs{
            {"spark.x.Secret", "a"}, {"--api-token", "b"}, {"spark.y", "c"}, {"hoodie.z.password", ""}};
        maskPairs(pairs);
        QVERIFY((pairs == std::vector<std::pair<std::string, std::string>>{{"spark.x.Secret", "****"},
                                                                           {"--api-token", "****"},
                                                                           {"spark.y", "c"},
                                                                           {"hoodie.z.password", "****"}}));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestSecretMasking)
#include "tst_secretmasking.moc"
