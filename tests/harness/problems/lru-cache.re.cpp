class LRUCache {
    map<int, int> values;
public:
    LRUCache(int capacity) {}
    int get(int key) { return values.at(key); }  // throws for a missing key
    void put(int key, int value) { values[key] = value; }
};
