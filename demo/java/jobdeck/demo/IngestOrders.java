package jobdeck.demo;

// Main class of the demo job ingest_orders.
public final class IngestOrders {
    private IngestOrders() {}

    public static void main(String[] args) throws Exception {
        DemoDriver.run("ingest_orders", "orders ingested", args);
    }
}
