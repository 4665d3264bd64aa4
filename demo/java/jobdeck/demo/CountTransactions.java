package jobdeck.demo;

// Main class of the demo job count_transactions.
public final class CountTransactions {
    private CountTransactions() {}

    public static void main(String[] args) throws Exception {
        DemoDriver.run("count_transactions", "transactions counted", args);
    }
}
