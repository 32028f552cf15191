pm.test('there are 99 users', function () {
    pm.expect(pm.response.json().count).to.eql(99);
});