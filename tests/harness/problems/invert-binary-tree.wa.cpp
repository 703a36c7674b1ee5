class Solution {
public:
    TreeNode* invertTree(TreeNode* root) {
        // swaps only the root's children
        if (root) swap(root->left, root->right);
        return root;
    }
};
